package explain

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// explainEdit says whether the user's latest change has been acted upon.
func explainEdit(k api.Key, o *objstatus.Object) string {
	var parts []string
	if !k.LastEventAt.IsZero() {
		switch {
		case !k.LastReconcileAt.IsZero() && !k.LastReconcileAt.Before(k.LastEventAt):
			first, ok := firstReconcileAfter(k, k.LastEventAt)
			switch {
			case ok && first.Equal(k.LastReconcileAt):
				parts = append(parts, fmt.Sprintf("The last change arrived at %s and was reconciled at %s", text.TimeOfDay(k.LastEventAt), text.TimeOfDay(first)))
			case ok:
				// Three times, three clauses: "(the last reconcile since, at …)" read as one run-on.
				parts = append(parts, fmt.Sprintf("The last change arrived at %s; the reconcile that saw it ended at %s; the last reconcile ended at %s",
					text.TimeOfDay(k.LastEventAt), text.TimeOfDay(first), text.TimeOfDay(k.LastReconcileAt)))
			default:
				parts = append(parts, fmt.Sprintf("The last change arrived at %s and has been reconciled since (the last reconcile at %s)",
					text.TimeOfDay(k.LastEventAt), text.TimeOfDay(k.LastReconcileAt)))
			}
		default:
			parts = append(parts, fmt.Sprintf("The last change arrived at %s and has not been reconciled yet", text.TimeOfDay(k.LastEventAt)))
		}
	}
	if o != nil && o.Verdict.ObservedGeneration != nil {
		if gen := o.Verdict.Generation; o.Unobserved() {
			parts = append(parts, fmt.Sprintf("your edit (generation %d) is not yet observed: status.observedGeneration is %d", gen, *o.Verdict.ObservedGeneration))
		} else {
			parts = append(parts, fmt.Sprintf("generation %d is observed", gen))
		}
	}
	if o != nil && o.DeletionTimestamp != nil {
		parts = append(parts, fmt.Sprintf("the object is being deleted since %s, waiting on finalizers %s", text.TimeOfDay(*o.DeletionTimestamp), strings.Join(o.Finalizers, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// firstReconcileAfter is when the first reconcile that started at or after
// t ended: the one that saw a change made at t. ok is false when the
// history does not reach back that far (or has no reconciles after t).
func firstReconcileAfter(k api.Key, t time.Time) (time.Time, bool) {
	for i, a := range k.History {
		if a.Outcome == api.OutcomeForgotten {
			continue
		}
		// Times are recorded at the end of a reconcile; its start is its
		// end less its duration (kept to the microsecond: allow for it).
		if !a.At.Add(-a.Duration.Duration).Before(t.Add(-time.Microsecond)) {
			return a.At, i > 0 || len(k.History) < api.HistorySize || a.At.Equal(k.LastReconcileAt)
		}
	}
	return time.Time{}, false
}
