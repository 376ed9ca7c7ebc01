package logs

import (
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A write refused as stale (the API server's optimistic lock: "the object
// has been modified; please apply your changes to the latest version and
// try again", controller-runtime's fake client "object was modified") is
// resolved by the retry that reads the object again: the queue retries it
// after the limiter's delay for its count (5ms after a first failure), and
// that retry, a success, is not logged at the default level. So a conflict
// whose key's next failure comes far later than that retry (twice the
// delay, and a second for a worker and the logger, and the stamps'
// coarseness) was followed by a success, the count forgotten: the later
// failure starts a new streak, not the conflict's count plus one, and no
// steady spacing is read from conflicts that come and go (the demo's
// conflicts keys failed 10s apart, read as "backoff 3, delay 10s
// (spacing)" though each had succeeded after 5ms). A failure of another
// error keeps the spacing rules (kube-controller-manager's namespace
// controller's steady 60s); a gap that is one of the limiter's own delays
// (rampGap) is the retry of a count the log did not show, failing again.

// fakeConflict is controller-runtime's fake client's words for a stale
// write, which the API server's (api.IsWriteConflict) do not cover.
const fakeConflict = "object was modified"

// conflictSlack is what a conflict's retry may take beyond twice its
// delay before a later failure is read as after its unlogged success.
const conflictSlack = preemptSlack

// conflictResolved says e's last failure was a conflict whose retry, due
// before at by far, succeeded unlogged; it then ends e's streak (the
// success forgot the key) and reports true. gap is at's from the last
// failure, coarse the stamps' uncertainty.
func (e *entry) conflictResolved(at time.Time, gap, coarse time.Duration, l Limiter) bool {
	if e.lastErr == nil || e.state != api.StateBackoff || e.nextRetry.IsZero() || gap <= 0 || !isConflict(e.lastErr.Message) {
		return false
	}
	if !at.After(e.nextRetry.Add(e.delay+conflictSlack+coarse)) || l.rampGap(gap, coarse) {
		return false
	}
	e.ended.failures = 0 // not counted back by a spacing that follows
	e.endStreak(api.StateIdle)
	e.endedUnlogged = true
	return true
}

// isConflict says msg is a stale write's error: the API server's or the
// fake client's.
func isConflict(msg string) bool {
	return api.IsWriteConflict(msg) || strings.Contains(msg, fakeConflict)
}
