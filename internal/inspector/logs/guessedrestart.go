package logs

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A failure later than twice its retry's delay ends the key's streak
// (endInferred): the retry ran, a failure would have been logged, so it
// succeeded unlogged. That holds when the delay is the limiter's own. It
// does not when the delay was read off the key's spacing and is shorter
// than the per-item exponential's for the count: only a Forget resets a
// count (client-go's ItemExponentialFailureRateLimiter.Forget deletes it;
// controller-runtime's reconcileHandler calls Queue.Forget on a success or
// a RequeueAfter only, and every error goes through When, v0.25.2
// controller.go:490-515), and a key re-added by events fails at the
// events' pace, which three spacings alike can read as a period. The
// demo's naive-00003, edited on a 3s ticker, failed 6s, 6s, 6s apart
// sixteen failures into its ramp, then 30s later: read as a success not
// logged, its count restarted there and again and again, 216 of the 258
// the queue counted.
//
// So a failure late for such a delay, but not for the limiter's own, is
// a guessed restart, and the count goes on. A
// restart shows itself: a count from 1 retries after the limiter's first
// delay (5ms), so the next failure comes one ramp step after the guessed
// one (Limiter.fits). Then the streak restarts at the guessed failure;
// else the guess is dropped. A key whose first retry after a real restart
// succeeded shows no ramp either, and is read as one streak: a period read
// from the log is the only case that risks it.

// guessRestart says a failure at at, late for the key's retry, is only a
// guessed restart: the delay it is late for is the spacing's, shorter than
// l's own for the count, and it is not late for l's own (as endInferred
// judges late: twice the delay and streakSlack). It records the guess.
func (e *entry) guessRestart(at time.Time, l Limiter) bool {
	own := l.Delay(e.failures)
	if e.delaySource != api.SourceSpacing || e.delay >= own || e.failAt.IsZero() || at.After(e.failAt.Add(2*own+streakSlack)) {
		return false
	}
	e.guessedAt = at
	return true
}

// confirmRestart reads a failure at at, gap after the key's last one, when
// that last one was a guessed restart: one ramp step after it, the streak
// restarts there (the count is the guessed failure's 1), and it reports
// true; else the guess is dropped.
func (e *entry) confirmRestart(at time.Time, gap, coarse time.Duration, l Limiter) bool {
	guessed := e.guessedAt
	e.guessedAt = time.Time{}
	if guessed.IsZero() || !guessed.Equal(e.failAt) || e.state != api.StateBackoff || at.IsZero() || !l.fits(1, gap, coarse) {
		return false
	}
	e.failures, e.firstFailure, e.countReset = 1, guessed, false
	e.delay, e.delaySource, e.earlier, e.stated = l.Delay(1), l.source(), time.Time{}, false
	e.est = estimate{exp: e.delay, source: e.delaySource} // the old streak's spacings are not the new one's
	e.nextRetry = e.failAt.Add(e.delay)
	e.markRamp(1, l)
	return true
}
