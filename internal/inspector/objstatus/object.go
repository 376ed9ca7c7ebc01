package objstatus

import "time"

// Object is what the API server says about the object behind a key: its
// identity, its deletion and finalizers, its latest events, and what it
// says of its latest change.
type Object struct {
	Kind              string     `json:"kind,omitempty"`
	Namespace         string     `json:"namespace,omitempty"`
	Name              string     `json:"name"`
	DeletionTimestamp *time.Time `json:"deletionTimestamp,omitempty"`
	Finalizers        []string   `json:"finalizers,omitempty"`
	// Events are the object's most recent events, newest first.
	Events []Event `json:"events,omitempty"`
	// Verdict is what the object says about its latest change, by the rule
	// `why` uses (Judge). It is the one place the object's generation,
	// status.observedGeneration and conditions are kept.
	Verdict Verdict `json:"verdict"`
	// SpecChange is who changed its spec last and when (nil when
	// managedFields say nothing).
	SpecChange *Change `json:"specChange,omitempty"`
}

// Unobserved reports whether the controller has not yet observed the
// object's latest generation (status.observedGeneration is behind
// metadata.generation); false when the kind has no observedGeneration.
func (o *Object) Unobserved() bool {
	og := o.Verdict.ObservedGeneration
	return og != nil && *og < o.Verdict.Generation
}

// Event is one Kubernetes Event about the object.
type Event struct {
	Type     string    `json:"type"`
	Reason   string    `json:"reason"`
	Message  string    `json:"message"`
	Count    int32     `json:"count,omitempty"`
	LastSeen time.Time `json:"lastSeen,omitzero"`
	// FirstSeen is the series' first occurrence (zero when unknown).
	FirstSeen time.Time `json:"firstSeen,omitzero"`
}
