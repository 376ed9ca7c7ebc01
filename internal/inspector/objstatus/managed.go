package objstatus

import (
	"encoding/json"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Change is the latest write to the object's spec, from its managedFields.
type Change struct {
	Manager   string    `json:"manager"`
	Operation string    `json:"operation"`
	Time      time.Time `json:"time,omitzero"`
}

// Ownership is what managedFields say about who wrote the object.
type Ownership struct {
	// SpecChange is the newest entry that touched spec; nil when none did
	// (managedFields stripped, or a kind without spec).
	SpecChange *Change `json:"specChange,omitempty"`
	// StatusManagers are the managers of the status subresource, newest
	// first: the controllers that reconcile the object.
	StatusManagers []Change `json:"statusManagers,omitempty"`
	// StatusViaMain is set when no entry is of the status subresource, but
	// some wrote status through the main resource (API servers before 1.22
	// did not record the subresource, and kinds without one write it so).
	StatusViaMain bool `json:"statusViaMain,omitempty"`
}

// StatusVia says how the status managers write the status.
func (o Ownership) StatusVia() string {
	if o.StatusViaMain {
		return "status written through the main resource"
	}
	return "status subresource"
}

// OwnershipOf reads managedFields: who changed spec last, who writes status.
func OwnershipOf(entries []metav1.ManagedFieldsEntry) Ownership {
	var o Ownership
	var viaMain []Change
	for _, e := range entries {
		c := Change{Manager: e.Manager, Operation: string(e.Operation)}
		if e.Time != nil {
			c.Time = e.Time.Time
		}
		top := topFields(e.FieldsV1)
		switch {
		case e.Subresource == "status":
			o.StatusManagers = addManager(o.StatusManagers, c)
		case e.Subresource == "":
			if top["f:spec"] && (o.SpecChange == nil || c.Time.After(o.SpecChange.Time)) {
				o.SpecChange = &c
			}
			if top["f:status"] {
				viaMain = addManager(viaMain, c)
			}
		}
	}
	if len(o.StatusManagers) == 0 && len(viaMain) > 0 {
		o.StatusManagers, o.StatusViaMain = viaMain, true
	}
	slices.SortStableFunc(o.StatusManagers, func(a, b Change) int { return b.Time.Compare(a.Time) })
	return o
}

// addManager adds c, or keeps the newer of two entries of one manager.
func addManager(list []Change, c Change) []Change {
	i := slices.IndexFunc(list, func(x Change) bool { return x.Manager == c.Manager })
	if i < 0 {
		return append(list, c)
	}
	if c.Time.After(list[i].Time) {
		list[i] = c
	}
	return list
}

// topFields lists the top-level fields of a FieldsV1 set ("f:spec",
// "f:status", "f:metadata").
func topFields(f *metav1.FieldsV1) map[string]bool {
	out := map[string]bool{}
	if f == nil {
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(f.Raw, &m) != nil {
		return out
	}
	for k := range m {
		out[k] = true
	}
	return out
}
