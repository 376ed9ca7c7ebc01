package logs

import "time"

// A log read from the middle of a streak shows a key's failures at its
// limiter's delay for a count the log does not show. kube-controller-
// manager's clusterroleaggregation controller (batch14/1440) fails
// monitoring-view at 06:33:07.331 and 06:33:27.818: 20.487s, client-go's
// DefaultControllerRateLimiter delay after its 13th failure (5ms·2^12 =
// 20.48s), the failures before the excerpt's first line. Its handler
// (clusterroleaggregation_controller.go: HandleError, then AddRateLimited;
// Forget only on a success, not logged) retries the key after exactly that
// delay; a success in between needs an event to re-add the key at that
// very millisecond. Read against the count the log shows (one failure:
// 5ms), the gap was far late, and ended the streak: FAILS 1, "unknown".
// A late gap that is one of the limiter's own delays is its retry: the
// streak goes on.

// rampGap says gap is one of l's own delays of doublingMin or more (up to
// its cap), come no more than rampEarly before it and at most spacingSlack
// after (a free worker, the reconcile, the logger). Stamps of whole
// seconds (coarse) are too loose to tell a delay from an event's chance
// gap: none is.
func (l Limiter) rampGap(gap, coarse time.Duration) bool {
	if coarse > 0 || gap < doublingMin {
		return false
	}
	for n := 1; n <= 64; n++ {
		d := l.Delay(n)
		if d >= doublingMin && gap+rampEarly >= d && gap <= d+spacingSlack {
			return true
		}
		if d > gap || d >= l.MaxDelay {
			return false
		}
	}
	return false
}
