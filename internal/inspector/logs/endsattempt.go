package logs

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A framework may say that it gives a key up on a line of its own, after
// the attempt's failure line: one attempt, two lines. The Java Operator
// SDK logs a failed reconcile ("Error during event processing SCOPE
// failed.", ReconciliationDispatcher, or the EventProcessor's own), then,
// when its retry has no attempt left, "Exhausted retries for SCOPE" and
// schedules no retry (EventProcessor.handleRetryOnException, v4.0.3 and
// 78b877beb; dialects/builtin.yaml).
//
// So a terminal or give-up line that states no error of its own and
// follows its key's failure line within attemptWindow ends that attempt:
// counted once, the key failed and not retried; the failure's error stays
// the attempt's. Alone (a paste that keeps only it, batch24/2421) it is
// the attempt: a failure, terminal, that says no error.

// endsAttemptLocked says whether r ends p's attempt (then it is applied
// there, not counted again).
func (s *Store) endsAttemptLocked(p *saidFailure, r *Record, key string) bool {
	if !(r.Terminal || r.GaveUp) || r.Error != "" || p.echoed || !within(p.at, r.At) {
		return false
	}
	e := s.keys[keyID{r.Controller, key}]
	if e == nil || e.history.len() == 0 {
		return false
	}
	p.echoed = true
	if e.state != api.StateFailed {
		e.endAttempt()
	}
	return true
}

// endAttempt makes the key's last failure its last: no retry follows it,
// and the count stays (a terminal error's: no Forget either).
func (e *entry) endAttempt() {
	if a := e.history.last(); a != nil && a.Outcome == api.OutcomeError {
		a.Outcome = api.OutcomeTerminal
	}
	e.state, e.nextRetry, e.delay, e.delaySource = api.StateFailed, time.Time{}, 0, ""
	e.est, e.stated, e.failAt = estimate{}, false, time.Time{}
}
