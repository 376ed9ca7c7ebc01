package logs

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A controller that builds its own queue picks its own per-item
// exponential: cloud-provider's service controller runs client-go's
// ItemExponentialFailureRateLimiter from 5s to 5m (controllers/service/
// controller.go: minRetryDelay, maxRetryDelay), so its key fails at 0s,
// 10s, 30s: gaps that double, each far longer than the assumed limiter's
// delay for the count. Read with the assumed limiter (5ms), each gap is
// far "late" and restarts the streak. Gaps that double are the
// fingerprint of a per-item exponential (client-go's doubles exactly,
// ItemExponentialFailureRateLimiter.When: base·2^n): the key is one
// streak, and its next retry waits twice the last gap.

// doublingMin is the shortest first gap of a doubling read as the
// controller's own exponential: shorter gaps are a worker's and a
// logger's jitter as much as a limiter's (spacingSlack).
const doublingMin = time.Second

// doublingTolerance is how far a gap may be from twice the one before, in
// percent, and still double it.
const doublingTolerance = 15

// doubles says cur is twice prev, give or take doublingTolerance and the
// stamps' coarseness, with prev at least doublingMin (coarseSteady for
// whole-second stamps) and far longer than assumed, the delay the assumed
// limiter gives the key's running count (rampFar: a limiter of the
// assumed kind doubling in seconds is the assumed limiter's own ramp).
func doubles(prev, cur, coarse, assumed time.Duration) bool {
	if prev < doublingMin || (coarse > 0 && prev < coarseSteady) || prev < rampFar*assumed {
		return false
	}
	want := 2 * prev
	return (cur - want).Abs() <= want*doublingTolerance/100+coarse
}

// doubledDelay is the delay after a doubling gap: the assumed limiter's
// next when the gap is one of its own delays, come no sooner and at most
// spacingSlack late (its ramp, seen from a count the log did not show:
// 20.48s, then 40.96s), else twice the gap, within the assumed limiter's
// cap (client-go's exponential caps; the controller's cap is not in the
// log).
func doubledDelay(gap, coarse time.Duration, l Limiter) time.Duration {
	for n := 1; ; n++ {
		d := l.Delay(n)
		if d > gap+coarse+rampEarly || d >= l.MaxDelay {
			break
		}
		if gap <= d+spacingSlack+coarse {
			return l.Delay(n + 1)
		}
	}
	return min(2*gap, l.MaxDelay)
}

// noteDoubling follows the key's gaps with one of gap (prev, the one
// before): on a doubling it counts it (e.doubling) and reads the key's
// previous failure as that exponential's retry, its row's delay and its
// pending retry twice prev. It reports whether gap doubles prev.
func (e *entry) noteDoubling(prev, gap, coarse time.Duration, l Limiter) bool {
	// A retry the controller's token bucket put off (the key's delay read
	// from the bucket) is the bucket's pace, not the key's: a herd behind
	// an empty bucket spaces one key's retries by whatever the others take
	// (the demo's outage: 5s, then 10s, a bucket's and no exponential's).
	if prev <= 0 || gap <= 0 || e.delaySource == api.SourceBucket || !doubles(prev, gap, coarse, l.Delay(max(e.failures, 1))) {
		e.doubling = 0
		return false
	}
	e.doubling++
	if e.state != api.StateBackoff || e.stated || e.failAt.IsZero() {
		return true
	}
	e.delay, e.delaySource = doubledDelay(prev, coarse, l), api.SourceDoubling
	e.nextRetry, e.earlier = e.failAt.Add(e.delay), time.Time{}
	// The history's last two error rows: the earlier one's delay was the
	// first gap, the later one came as its retry.
	n := 0
	for i := e.history.len() - 1; i >= 0 && n < 2; i-- {
		a := e.history.at(i)
		if a.Outcome != api.OutcomeError {
			continue
		}
		if n == 0 {
			a.Delay = metav1.Duration{Duration: e.delay}
			if e.doubling == 1 {
				a.Trigger, a.Preempted = api.TriggerRetry, false
			}
		} else if e.doubling == 1 {
			a.Delay = metav1.Duration{Duration: prev}
		}
		n++
	}
	return true
}
