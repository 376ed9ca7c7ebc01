package widget

import (
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// What a forget or a retry changes for a key's next failure, in the
// dialog's words. The per-item count restarts at 0; a token bucket is not
// reset, so a next failure (a retry during an outage fails again) waits
// what the bucket decides: both dialogs say so.

// bulkNext says what a next failure of a set's keys waits after their
// counts are reset: the base delay, or what the token buckets of their
// controllers (not reset) decide.
func (a Action) bulkNext() string {
	next := "a next failure waits only the base delay."
	switch {
	case a.bucket() && len(a.Buckets) < len(a.ActedOn()):
		// Keys of controllers with and without a bucket: each its own.
		bs := "whose token bucket still applies"
		if len(a.Buckets) > 1 {
			bs = "whose token buckets still apply"
		}
		next = "a next failure waits only the base delay, except in " + strings.Join(a.Buckets, ", ") + ", " + bs + "."
	case a.bucket() && a.NextWait != "":
		next = "a next failure waits " + a.NextWait + "."
	case a.bucket():
		next = "the token bucket still applies to a next failure."
	}
	return next
}

// retryEffect says what a retry of one key does: the forget's reset, the
// key requeued at once, and, as forgetEffect says, what the token bucket
// (not reset) makes a next failure wait: a retry during an outage fails
// again, and waits the bucket's delay, not the base one.
func (a Action) retryEffect() string {
	const now = "it is requeued at once: reconciled as soon as a worker is free"
	switch {
	case a.DelaySource == api.SourceBucket && a.NextWait != "":
		return "Its per-item failure count goes back to 0 and " + now + "; but its delay came from the token bucket, which a retry does not reset: if it fails again, it waits " + a.NextWait + "."
	case a.DelaySource == api.SourceBucket:
		return "Its per-item failure count goes back to 0 and " + now + "; but its delay came from the controller's token bucket, which a retry does not reset and which still applies if it fails again."
	case a.bucket() && a.NextWait != "":
		return "Its per-item failure count goes back to 0 and " + now + "; if it fails again, it waits " + a.NextWait + "."
	case a.bucket():
		return "Its per-item failure count goes back to 0 and " + now + "; if it fails again, it waits at least the base delay (the token bucket still applies)."
	}
	return "Its failure count goes back to 0 and " + now + "."
}

// forgetEffect says what a forget of one key changes for its next failure.
// The per-item count restarts at 0; a token bucket is not reset, so when
// the bucket chose the delay a forget does not shorten the next one.
func (a Action) forgetEffect() string {
	switch {
	case a.DelaySource == api.SourceBucket && a.NextWait != "":
		return "Its per-item failure count goes back to 0, but its delay came from the token bucket, which a forget does not reset; its next failure waits " + a.NextWait + "."
	case a.DelaySource == api.SourceBucket:
		return "Its per-item failure count goes back to 0, but its delay came from the controller's token bucket, which still applies to its next failure."
	case a.bucket() && a.NextWait != "":
		return "Its per-item failure count goes back to 0; its next failure waits " + a.NextWait + "."
	case a.bucket():
		return "Its per-item failure count goes back to 0, so its next failure waits at least the base delay again (the token bucket still applies)."
	}
	return "Its failure count goes back to 0, so its next failure waits the base delay again."
}
