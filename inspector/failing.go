package inspector

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// Failing reports whether a key is failing in the user's sense: in a
// failure streak the limiter still counts (whatever it does now: a retry
// may be queued or running), failed (a terminal error, or the controller
// gave up), or backing off after its last reconcile failed. A key whose
// count was reset after its last failure — a forget without requeue, whose
// retry keeps its time — is not failing until it fails again.
//
// It is the one rule for one key; InTrouble is the controller's count,
// which the wire gives only by state.
func Failing(k *api.Key) bool {
	switch {
	case k == nil:
		return false
	case k.Failures > 0, k.State == api.StateFailed:
		return true
	case k.State == api.StateBackoff:
		return !resetSinceFailure(k)
	}
	return false
}

// resetSinceFailure reports whether the key's failure count was reset
// (LastReset) after its last reconcile and its last error: nothing has
// failed since. A reset at the same instant counts as after: it is the
// later call (fake clocks give both one time).
func resetSinceFailure(k *api.Key) bool {
	r := k.LastReset
	if r == nil || r.At.Before(k.LastReconcileAt) {
		return false
	}
	return k.LastError == nil || !r.At.Before(k.LastError.At)
}

// InTrouble is how many keys of c are failing: backing off or failed, by
// c.Counts. The wire counts keys only by state, so a key whose count a
// forget reset while its retry stays pending (state backoff, which Failing
// calls not failing) is still counted here: telling them apart takes a
// count the endpoint does not send yet.
func InTrouble(c *api.Controller) int {
	return c.Counts[api.StateBackoff] + c.Counts[api.StateFailed]
}
