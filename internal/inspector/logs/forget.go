package logs

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// forgotLocked applies a ForgetLine: each key it names is reset as the
// instrument's forget resets it (instrument's userForgot), so that the
// counts after a `kubectl backoff forget` restart where the endpoint's do.
// A key the log has not seen yet is tracked from here.
func (s *Store) forgotLocked(r Record) {
	for i, k := range r.Forgot {
		var release time.Duration
		if r.Requeue && r.Count > 1 {
			// The forget's spread, as the instrument releases the i-th key.
			release = r.Spread * time.Duration(i) / time.Duration(r.Count)
		}
		e, _ := s.entryLocked(r.Controller, k.Key, r.At)
		e.forgot(r, k.Failures, release)
	}
}

// forgot resets the key's failure count (not its streak: it is failing
// since its first failure until a reconcile succeeds, as on the endpoint)
// and, when the forget requeued it, releases its retry: now, or after its
// share of the spread (a sooner retry still pending is kept: both queues
// keep the sooner ready time). Without requeue a pending retry keeps its
// time. failures is what the instrument had counted.
func (e *entry) forgot(r Record, failures int, release time.Duration) {
	at := r.At
	e.lastReset = &api.Reset{At: at, By: api.ResetForget, Failures: failures, User: r.User, Reason: r.Reason}
	e.failures, e.countReset = 0, e.failures > 0 || !e.firstFailure.IsZero()
	e.est, e.stated, e.failAt, e.earlier = estimate{}, false, time.Time{}, time.Time{}
	e.addAttempt(api.Attempt{At: at, Outcome: api.OutcomeForgotten, Delay: metav1.Duration{Duration: release},
		Trigger: api.TriggerForget, By: r.User, Reason: r.Reason})
	if !r.Requeue {
		return
	}
	failing := e.state == api.StateBackoff || e.state == api.StateFailed || !e.firstFailure.IsZero()
	pending := e.state == api.StateBackoff || e.state == api.StateScheduled
	switch {
	case release > 0:
		next := at.Add(release)
		if pending && !e.nextRetry.IsZero() && e.nextRetry.After(at) && e.nextRetry.Before(next) {
			next = e.nextRetry
		}
		e.state, e.nextRetry, e.delay, e.delaySource = api.StateScheduled, next, release, api.SourceSpread
		if failing {
			e.state = api.StateBackoff
		}
		if at.IsZero() {
			e.nextRetry = time.Time{}
		}
	default:
		e.state, e.queuedAt, e.nextRetry, e.delay, e.delaySource = api.StateQueued, at, time.Time{}, 0, ""
		e.released, e.releasedBy, e.releasedWhy = true, r.User, r.Reason
	}
}
