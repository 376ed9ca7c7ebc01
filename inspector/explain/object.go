package explain

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector/objstatus"
)

// ObjectStatus is what the API server says about the object behind a key.
type ObjectStatus struct {
	Kind, Namespace, Name string
	Generation            int64
	// ObservedGeneration is status.observedGeneration, nil when the object has none.
	ObservedGeneration *int64
	Conditions         []Condition
	DeletionTimestamp  *time.Time
	Finalizers         []string
	// Events are the object's most recent events, newest first.
	Events []Event
	// Verdict is what the object says about its latest change, by the rule
	// `why` uses (objstatus.Judge); SpecChange is who changed its spec last
	// and when (nil when managedFields say nothing).
	Verdict    *objstatus.Verdict `json:",omitempty"`
	SpecChange *objstatus.Change  `json:",omitempty"`
}

// Condition is one entry of status.conditions.
type Condition struct {
	Type, Status, Reason, Message string
	LastTransitionTime            time.Time
}

// Event is one Kubernetes Event about the object.
type Event struct {
	Type, Reason, Message string
	Count                 int32
	LastSeen              time.Time
}
