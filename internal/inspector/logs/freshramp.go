package logs

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A key that succeeded and then failed again shows, in a log that does not
// log successes, a fresh ramp: failures whose gaps grow as the limiter's
// delays from a count of 1 (5ms, 10ms, 20ms, …), after whatever gap held
// the unlogged success. Only a Forget resets client-go's per-item count
// (ItemExponentialFailureRateLimiter.Forget: controller-runtime's
// reconcileHandler calls it on a success or a RequeueAfter); a failed
// reconcile an event triggered still counts (AddRateLimited). So one
// failure sooner than its retry is no reset, but several in a row, each
// gap far below the delay the running count implies and as long as a count
// from 1 gives, cannot happen without one: the streak restarts at the
// run's first failure.

// rampMin is how many failures a fresh ramp needs before it restarts the
// streak: three gaps in a row on a count-from-1 schedule.
const rampMin = 4

// rampSlack is how much later than twice its delay a fresh ramp's retry may
// come (a free worker, the reconcile, the logger); far shorter than
// spacingSlack, because the rule must not read a burst of events as a ramp.
const rampSlack = 250 * time.Millisecond

// rampFar is how many times shorter than the running count's delay every
// gap of a fresh ramp must be.
const rampFar = 4

// ramp is the run of failures ending at the key's last one whose gaps fit a
// count from 1 (the candidate fresh ramp).
type ramp struct {
	from, last time.Time
	n          int
	// far says every gap of the run was far below the delay the key's
	// running count implied (rampFar).
	far bool
}

// rampEarly is how much shorter than its delay a ramp's gap may be:
// controller-runtime requeues a failed key before it logs "Reconciler
// error" (reconcileHandler: AddWithOpts, then log.Error), so a line the
// logger was slow to stamp is late by that much and the gap after it short
// by as much. At a ramp's 5ms a loaded machine's millisecond is a fifth of
// the delay (4.1ms seen for 5ms), more than the tenth the rule allows.
const rampEarly = 2 * time.Millisecond

// fits says a gap g after a ramp's n-th failure is the limiter's delay for
// a count of n, give or take the stamps' coarseness and the logger's
// latency (rampEarly).
func (l Limiter) fits(n int, g, coarse time.Duration) bool {
	want := l.Delay(n)
	return 10*(g+coarse+rampEarly) >= 9*want && g <= 2*want+rampSlack+coarse
}

// coarseness is a timestamp's uncertainty for a gap between a and b: a
// second when both are whole seconds.
func coarseness(a, b time.Time) time.Duration {
	if a.Nanosecond() == 0 && b.Nanosecond() == 0 {
		return preemptSlack
	}
	return 0
}

// freshRamp follows the key's candidate ramp with a failure at at (before
// failed counts it), and restarts the streak when the ramp shows a reset:
// the count becomes the ramp's so far, the streak starts at its first
// failure, and the history's rows of the run say so. It reports whether
// it restarted the streak.
func (e *entry) freshRamp(at time.Time, l Limiter) bool {
	r := &e.ramp
	if at.IsZero() {
		*r = ramp{}
		return false
	}
	switch {
	case r.n > 0 && !at.Before(r.last) && l.fits(r.n, at.Sub(r.last), coarseness(r.last, at)):
		c := coarseness(r.last, at)
		r.far = r.far && rampFar*(at.Sub(r.last)+c) <= l.Delay(e.failures)
		r.n++
	case r.n > 0 && !at.Before(r.last) && l.fits(1, at.Sub(r.last), coarseness(r.last, at)):
		// The run broke here, but its last failure and this one may be a
		// ramp's first two: what came before its last failure is free.
		c := coarseness(r.last, at)
		*r = ramp{from: r.last, n: 2, far: rampFar*(at.Sub(r.last)+c) <= l.Delay(e.failures)}
	default:
		*r = ramp{from: at, n: 1, far: true}
	}
	r.last = at
	if r.n < rampMin || !r.far || e.state != api.StateBackoff || e.failures < r.n {
		return false
	}
	e.failures, e.firstFailure, e.countReset = r.n-1, r.from, false
	// The retry the old count scheduled was the unlogged success's: what
	// waits is the ramp's own retry.
	e.delay, e.delaySource, e.earlier, e.stated = l.Delay(e.failures), l.source(), time.Time{}, false
	e.est.exp, e.est.longest = e.delay, 0 // the old streak's spacings are not the ramp's
	if !e.failAt.IsZero() {
		e.nextRetry = e.failAt.Add(e.delay)
	}
	e.markRamp(e.failures, l)
	return true
}

// markRamp rewrites the history's rows of a fresh ramp's first n failures
// (the key's last n error rows): the first starts a new streak, the later
// ones are its retries, and each row's delay is the ramp's count's.
func (e *entry) markRamp(n int, l Limiter) {
	for i := e.history.len() - 1; i >= 0 && n > 0; i-- {
		a := e.history.at(i)
		if a.Outcome != api.OutcomeError {
			continue
		}
		a.Delay = metav1.Duration{Duration: l.Delay(n)}
		a.Trigger, a.Preempted = api.TriggerRetry, false
		if n == 1 {
			a.Trigger = api.TriggerNewStreak
		}
		n--
	}
}

// rampNote says, for --explain-lines, that a streak was restarted at from
// with n failures so far.
func rampNote(from time.Time, n int) string {
	return fmt.Sprintf("a new streak from %s: %d failures in a fresh ramp, so a success in between was not logged",
		from.UTC().Format(time.TimeOnly), n)
}
