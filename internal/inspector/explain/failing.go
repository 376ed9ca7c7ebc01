package explain

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// Failing reports whether a key is failing: in a failure streak the limiter
// still counts (whatever it does now: a retry may be queued or running),
// failed (a terminal error, or the controller gave up), or backing off after
// its last reconcile failed. A forget without requeue resets the count, not
// the failure: the key's last reconcile failed and its retry is still to
// come, so it stays failing until a reconcile succeeds. A forget with
// requeue does not end the failure either: in its streak (firstFailureAt),
// the key is failing while it waits for its spread slot (backoff,
// delaySource spread), is queued or runs, until a reconcile succeeds.
//
// It is the one rule for one key; InTrouble is the controller's count.
func Failing(k *api.Key) bool {
	if k == nil {
		return false
	}
	inStreak := !k.FirstFailureAt.IsZero() && (k.State == api.StateQueued || k.State == api.StateRunning)
	return k.Failures > 0 || k.State == api.StateFailed || k.State == api.StateBackoff || inStreak
}

// InTrouble is how many keys of c are failing, by its counts per state:
// backing off or failed (FailingStates), as Failing says of one key.
func InTrouble(c *api.Controller) int {
	n := 0
	for _, s := range FailingStates {
		n += c.Counts[s]
	}
	return n
}

// ResolvedMark prefixes a last error that a reconcile has succeeded since,
// where lists show it: the error is history, not the key's state.
const ResolvedMark = "✓ "

// ErrorResolved reports whether k's last error is history: k is not
// failing, and a reconcile ended after the error without one.
func ErrorResolved(k *api.Key) bool {
	return k != nil && k.LastError != nil && !Failing(k) && k.LastReconcileAt.After(k.LastError.At)
}
