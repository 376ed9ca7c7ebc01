package explain

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// explainSpread explains a failing key that a bulk forget requeued with a
// spread (delaySource spread): its retry waits for its slot in the spread,
// not for the limiter, and it is failing still, until a reconcile succeeds.
// It is a backoff, not a schedule: a RequeueAfter is a planned re-check of
// a key that is not failing.
func explainSpread(k api.Key, src *api.ListSource, now time.Time) string {
	var b strings.Builder
	b.WriteString("Requeued by forget")
	slot := k.NextRetryAt
	if r := k.LastReset; r != nil && r.By == api.ResetForget {
		fmt.Fprintf(&b, " at %s", text.TimeOfDay(r.At))
		switch {
		case r.User != "" && r.Reason != "":
			fmt.Fprintf(&b, " (%s: %s)", r.User, r.Reason)
		case r.User != "" || r.Reason != "":
			fmt.Fprintf(&b, " (%s%s)", r.User, r.Reason)
		}
		// The slot is the release the forget gave it; a sooner retry
		// already pending keeps NextRetryAt.
		slot = r.At.Add(k.Delay.Duration)
	}
	b.WriteString(", waiting for its spread slot")
	if !slot.IsZero() {
		fmt.Fprintf(&b, " at %s", text.TimeOfDay(slot))
		if slot.After(now) {
			fmt.Fprintf(&b, " (%s)", inText(text.Countdown(slot, now), src))
		}
	}
	b.WriteString(": a bulk retry releases its keys over time, so that they do not all retry at once")
	if k.EarlierRetry && k.NextRetryAt.After(now) {
		// The queue keeps the sooner of two ready times for one key.
		fmt.Fprintf(&b, "; a retry scheduled before it runs the key sooner, at %s (%s)", text.TimeOfDay(k.NextRetryAt), inText(text.Countdown(k.NextRetryAt, now), src))
	}
	b.WriteString(". Its failure count is reset; it is failing until a reconcile succeeds.")
	return b.String()
}
