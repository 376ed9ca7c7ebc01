package explain

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A controller gives up on a key at its retry limit (client-go's handleErr:
// Forget and no requeue once NumRequeues reaches maxRetries). The
// instrument counts the retries the limiter scheduled before it (one When a
// retry), so it can say "after 5 retries". A log shows the give-up line and
// whatever failures of the key it happens to hold, often the give-up line
// alone: the retries before it are not in it, and their number is not
// known. So a key read off a log says the limit was reached and how many
// failures the log shows, never a count of retries — unless its give-up
// line states the count (Reset.Kept): then "after N failures", the count
// the controller kept.

// gaveUpSummary is the diagnosis of a key the controller gave up on (r is
// its give-up reset).
func gaveUpSummary(k api.Key, r *api.Reset) string {
	if k.Source == api.SourceLogs && r.Kept {
		return fmt.Sprintf("Gave up at %s after %s (the count its give-up line states; %d in this log): not retried until the next change to the object (state failed).",
			text.TimeOfDay(r.At), text.Plural(r.Failures, "failure"), max(k.TotalFailures, 1))
	}
	if k.Source == api.SourceLogs {
		return fmt.Sprintf("Gave up at %s (the controller's retry limit was reached; %s in this log): not retried until the next change to the object (state failed).",
			text.TimeOfDay(r.At), text.Plural(max(r.Failures, 1), "failure"))
	}
	return fmt.Sprintf("Gave up after %s at %s: not retried until the next change to the object (state failed).",
		text.Plural(r.Failures, "retry"), text.TimeOfDay(r.At))
}

// GaveUpText is a key given up on, in a few words: "gave up after 5
// retries", or read off a log, "gave up (retry limit reached)" ("gave up
// after 5 failures" when its give-up line states the count); empty
// when the controller did not give up on it (GaveUp).
func GaveUpText(k api.Key) string {
	r := GaveUp(k)
	switch {
	case r == nil:
		return ""
	case k.Source == api.SourceLogs && r.Kept:
		return "gave up after " + text.Plural(r.Failures, "failure")
	case k.Source == api.SourceLogs:
		return "gave up (retry limit reached)"
	}
	return "gave up after " + text.Plural(r.Failures, "retry")
}

// GaveUp returns the reset by which the controller gave up on a key, when
// that is why it is failed (client-go's handleErr: Forget after N retries,
// no requeue), rather than a terminal error after it.
func GaveUp(k api.Key) *api.Reset {
	r := k.LastReset
	if r == nil || r.By != api.ResetGaveUp || r.At.Before(k.LastReconcileAt) {
		return nil
	}
	return r
}
