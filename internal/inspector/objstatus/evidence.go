package objstatus

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Failure is one piece of evidence that the controller's attempts at the
// object fail: a failure-type condition, or a series of Warning events
// since the object's last change. The messages are what the blocker object
// is read from (the quota, the ServiceAccount a message names).
type Failure struct {
	// What is "ReplicaFailure=True (FailedCreate)" or "7 FailedCreate events".
	What    string `json:"what"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
	// Event is set for an event series; Count, First and Last are its
	// occurrences (First and Last a condition's lastTransitionTime).
	Event bool      `json:"event,omitempty"`
	Count int32     `json:"count,omitempty"`
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
}

// falseIsFailure are the condition types whose False says the controller
// cannot do its work, with the reasons that are a choice, not a failure.
// HorizontalPodAutoscaler (autoscaling/v2 types.go): AbleToScale=False
// (FailedGetScale, FailedUpdateScale), ScalingActive=False
// (FailedGetResourceMetric, InvalidSelector …) but ScalingDisabled when
// the target's replicas are 0 on purpose.
var falseIsFailure = map[string][]string{
	"AbleToScale":   nil,
	"ScalingActive": {"ScalingDisabled"},
}

// failureCondition reports whether c says a failure: a type whose True is
// one (ReplicaFailure, …Failed, Stalled), or one of falseIsFailure.
func failureCondition(c Condition) bool {
	if c.Status == "True" {
		return failing(c.Type)
	}
	unless, ok := falseIsFailure[c.Type]
	return ok && c.Status == "False" && !slices.Contains(unless, c.Reason)
}

// failureConditions is the status rule for every kind, built-in or custom:
// kstatus reads Ready and a few built-ins' fields, so a
// ReplicationController with ReplicaFailure=True (kstatus has no rule for
// its kind) or an HPA with AbleToScale=False reads Current. Its own
// failure-type conditions say otherwise; kstatus stays the first opinion,
// this overrides it and says so.
func failureConditions(u *unstructured.Unstructured, v *Verdict) bool {
	if r, ok, _ := unstructured.NestedInt64(u.Object, "status", "replicas"); v.Status == InProgress && strings.HasSuffix(v.Message, "Check Pods") && (!ok || r == 0) {
		// kstatus's advice for a ReplicaSet's ReplicaFailure; there is no
		// pod to check when the failure is that none could be created.
		v.Message = strings.TrimSuffix(strings.TrimSuffix(v.Message, "Check Pods"), " ") + " No pod exists: the failure is in creating them."
	}
	if v.Status != Current || len(v.Failures) == 0 {
		return false
	}
	f := v.Failures[0]
	v.override(InProgress, "failure-condition", fmt.Sprintf("not Current: %s: %s (kstatus said %s: %s)",
		f.What, strings.TrimSuffix(oneLine(f.Message), "."), v.KStatus, oneLine(v.Message)))
	return true
}

// collectFailures records v's failure-type conditions as evidence, whichever
// rule decides: the blocker object is read from their messages.
func collectFailures(v *Verdict) {
	for _, c := range v.Conditions {
		if failureCondition(c) {
			v.Failures = append(v.Failures, Failure{What: fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason), Reason: c.Reason,
				Message: c.Message, First: c.LastTransitionTime, Last: c.LastTransitionTime})
		}
	}
}

// failureEvent reports an event that says an attempt failed: a Warning
// whose reason names a failure (FailedCreate, ProvisioningFailed,
// FailedMount, FailedGetScale, a CRD's ReconcileError), or a Normal one
// whose reason begins with Failed — kube-controller-manager's volume binder
// records FailedBinding ("no persistent volumes available for this claim
// and no storage class is set") as Normal: the claim waits on the user, and
// the event is the only thing that says so.
func failureEvent(e Event) bool {
	r := e.Reason
	switch e.Type {
	case "Warning":
		return strings.HasPrefix(r, "Failed") || strings.HasSuffix(r, "Failed") || strings.HasSuffix(r, "Error") || strings.HasSuffix(r, "Failure")
	case "Normal":
		return strings.HasPrefix(r, "Failed")
	}
	return false
}

// JudgeEvents is the status rule read from the object's Events, for every
// kind: failure events (failureEvent) that keep recurring since the
// object's last change — two or more, and no other Normal event after the
// latest (a success since says the trouble passed) — make an object that
// reads Current not Current. A Job whose every pod is refused by
// PodSecurity has no condition that says so, only its FailedCreate events.
// since is the last change (the spec's newest managedFields entry, else
// the creation); events are as read, newest first or not.
func (v *Verdict) JudgeEvents(events []Event, since, now time.Time) {
	if v.Status == Terminating {
		return
	}
	var lastNormal time.Time
	for _, e := range events {
		if e.Type == "Normal" && !failureEvent(e) && e.LastSeen.After(lastNormal) {
			lastNormal = e.LastSeen
		}
	}
	var found []Failure
	var total int32
	for _, e := range FoldEvents(events) {
		// Event times and managedFields' are whole seconds: one in the same
		// second as the change is taken as after it (what it reacted to).
		if !failureEvent(e) || e.LastSeen.Before(since) || !e.LastSeen.After(lastNormal) {
			continue
		}
		n := max(e.Count, 1)
		first := e.FirstSeen
		if first.Before(since) || first.IsZero() {
			first = since // only the occurrences since the change are known to be about it
		}
		found = append(found, Failure{What: fmt.Sprintf("%d %s %s", n, e.Reason, plural(int(n), "event", "events")), Reason: e.Reason,
			Message: e.Message, Event: true, Count: n, First: first, Last: e.LastSeen})
		total += n
	}
	if len(found) == 0 {
		return
	}
	slices.SortStableFunc(found, func(a, b Failure) int { return b.Last.Compare(a.Last) })
	v.Failures = append(v.Failures, found...)
	if total < 2 {
		return // once is not recurring: the controller may have succeeded since, unseen
	}
	f := found[0]
	said := fmt.Sprintf("%s since the last change, the latest %s ago: %s", f.What, roundAgo(now.Sub(f.Last)), strings.TrimSuffix(oneLine(f.Message), "."))
	v.Recurring = said
	if v.Status != Current {
		v.Evidence = append(v.Evidence, said)
		return
	}
	v.override(InProgress, "failure-events", fmt.Sprintf("not Current: %s (kstatus said Current: %s)", said, oneLine(v.Message)))
}

// JudgeObjectEvents is the events rule as every reader of an object
// applies it (why, describe): JudgeEvents over the object's events since
// its LastChange, for every kind but a core Pod, which is judged by its
// containers' states.
func (v *Verdict) JudgeObjectEvents(u *unstructured.Unstructured, events []Event, now time.Time) {
	if gvk := u.GroupVersionKind(); gvk.Kind == "Pod" && gvk.Group == "" {
		return
	}
	v.JudgeEvents(events, LastChange(u), now)
}

// LastChange is when u's spec last changed (managedFields), else its
// creation: the failures since are about the object as it is.
func LastChange(u *unstructured.Unstructured) time.Time {
	if c := OwnershipOf(u.GetManagedFields()).SpecChange; c != nil && !c.Time.IsZero() {
		return c.Time
	}
	return u.GetCreationTimestamp().Time
}

func roundAgo(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return d.Round(time.Second)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
