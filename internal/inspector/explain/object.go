package explain

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// ObjectStatus is what the API server says about the object behind a key.
type ObjectStatus struct {
	Kind       string `json:"kind,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	Generation int64  `json:"generation,omitempty"`
	// ObservedGeneration is status.observedGeneration, nil when the object has none.
	ObservedGeneration *int64      `json:"observedGeneration,omitempty"`
	Conditions         []Condition `json:"conditions,omitempty"`
	DeletionTimestamp  *time.Time  `json:"deletionTimestamp,omitempty"`
	Finalizers         []string    `json:"finalizers,omitempty"`
	// Events are the object's most recent events, newest first.
	Events []Event `json:"events,omitempty"`
	// Verdict is what the object says about its latest change, by the rule
	// `why` uses (objstatus.Judge); SpecChange is who changed its spec last
	// and when (nil when managedFields say nothing).
	Verdict    *objstatus.Verdict `json:"verdict,omitempty"`
	SpecChange *objstatus.Change  `json:"specChange,omitempty"`
}

// Condition is one entry of status.conditions.
type Condition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	Reason             string    `json:"reason,omitempty"`
	Message            string    `json:"message,omitempty"`
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
}

// Event is one Kubernetes Event about the object.
type Event struct {
	Type     string    `json:"type"`
	Reason   string    `json:"reason"`
	Message  string    `json:"message"`
	Count    int32     `json:"count,omitempty"`
	LastSeen time.Time `json:"lastSeen,omitzero"`
}
