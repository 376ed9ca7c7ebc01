package instrument

import (
	"errors"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// errTerminal is what errors.Is compares with to spot a terminal error; built
// once, because TerminalError allocates.
var errTerminal = reconcile.TerminalError(nil)

// This file holds what each decorator records. Every method takes the shard
// lock of one key, changes a few fields, and releases it: no I/O, no calls out.

// limited records a limiter's When: the key failed (again) and waits delay.
func (s *store[T]) limited(item T, delay time.Duration, source uint8, tracked bool) {
	now := s.now()
	sh, e := s.acquire(item, now)
	e.failures++
	if e.firstFailureAt == 0 {
		e.firstFailureAt = now
	}
	e.delay, e.source = int64(delay), source
	e.nextRetry = now + int64(delay)
	// Even while running: without the reconciler decorator, the classic queue
	// calls When before Done, and this delay is that reconcile's outcome. With
	// it, the reconcile has already finished when When is called.
	e.stored = stBackoff
	e.outcomeSinceGet = true
	switch {
	case e.pendingDelay:
		// The reconciler recorded this attempt; the limiter adds its delay.
		if a := e.lastAttempt(); a != nil {
			a.delay = delay
		}
		e.pendingDelay = false
	case !tracked:
		// Nobody reports reconcile outcomes: a rate-limited add is the failure.
		e.totalFailures++
		e.addAttempt(attempt{at: now, delay: delay, outcome: outError})
	}
	s.release(sh)
}

// forgot records a limiter's Forget when no reconciler decorator reports
// outcomes: the failure counter is back to zero, and a Forget after a
// reconcile is its success (or precedes a RequeueAfter, which after then
// records), whatever the key did before: backoff, scheduled or failed.
func (s *store[T]) forgot(item T) {
	sh, e := s.acquire(item, 0)
	e.failures = 0
	e.firstFailureAt = 0
	e.outcomeSinceGet = true
	if e.stored != stIdle {
		now := s.now()
		e.lastSeen = now
		e.stored = stIdle
		e.nextRetry, e.delay, e.source = 0, 0, srcNone
		e.lastSuccessAt = now
		e.addAttempt(attempt{at: now, outcome: outSuccess})
	}
	s.release(sh)
}

// added records a watch event: an Add that is not a requeue.
func (s *store[T]) added(item T) {
	now := s.now()
	sh, e := s.acquire(item, now)
	e.lastEventAt = now
	if e.queuedAt == 0 {
		e.queuedAt = now
	}
	s.release(sh)
}

// after records an AddAfter: a RequeueAfter, or a delayed add of the user's.
func (s *store[T]) after(item T, d time.Duration) {
	now := s.now()
	sh, e := s.acquire(item, now)
	e.nextRetry = now + int64(d)
	e.delay, e.source = int64(d), srcRequeueAfter
	e.stored = stScheduled // even while running, as in limited
	e.outcomeSinceGet = true
	s.release(sh)
}

// requeued records a rate-limited add whose When comes later (the priority
// queue calls it from its own goroutine): the worker did report an outcome.
func (s *store[T]) requeued(item T) {
	sh, e := s.acquire(item, s.now())
	e.outcomeSinceGet = true
	s.release(sh)
}

// dequeued records the queue handing the key to a worker.
func (s *store[T]) dequeued(item T) {
	now := s.now()
	sh, e := s.acquire(item, now)
	e.queuedAt = 0
	if !e.running {
		e.running, e.startedAt = true, now
	}
	e.outcomeSinceGet = false
	s.release(sh)
}

// done records the worker handing the key back. A reconcile that returned no
// outcome at all — no requeue, no Forget — ended in a terminal error.
func (s *store[T]) done(item T) {
	now := s.now()
	sh, e := s.acquire(item, now)
	if e.running && !e.outcomeSinceGet {
		e.stored = stFailed
		e.nextRetry, e.delay, e.source = 0, 0, srcNone
		e.totalFailures++
		e.addAttempt(attempt{at: now, duration: time.Duration(now - e.startedAt), outcome: outTerminal})
	}
	e.running, e.startedAt = false, 0
	s.release(sh)
}

// started records a reconcile beginning.
func (s *store[T]) started(item T) {
	now := s.now()
	sh, e := s.acquire(item, now)
	e.running, e.startedAt = true, now
	e.queuedAt = 0
	s.release(sh)
}

// finished records a reconcile's outcome exactly as controller-runtime acts on it.
func (s *store[T]) finished(item T, res reconcile.Result, err error, began int64) {
	now := s.now()
	var msg string
	if err != nil {
		msg = err.Error() // outside the lock: Error() is the user's code
	}
	sh, e := s.acquire(item, now)
	dur := time.Duration(now - began)
	e.running, e.startedAt = false, 0
	e.outcomeSinceGet = true
	e.reconciles++
	e.lastReconcileAt, e.lastDuration = now, int64(dur)
	e.pendingDelay = false
	switch {
	case err != nil && errors.Is(err, errTerminal):
		e.stored = stFailed
		e.nextRetry, e.delay, e.source = 0, 0, srcNone
		e.totalFailures++
		e.setError(&s.errors, msg, now)
		e.addAttempt(attempt{at: now, duration: dur, err: e.lastErr, outcome: outTerminal})
	case err != nil:
		e.stored = stBackoff
		e.totalFailures++
		if e.firstFailureAt == 0 {
			e.firstFailureAt = now
		}
		e.setError(&s.errors, msg, now)
		e.addAttempt(attempt{at: now, duration: dur, err: e.lastErr, outcome: outError})
		e.pendingDelay = true
	case res.RequeueAfter > 0:
		// controller-runtime forgets the key before scheduling it.
		e.failures, e.firstFailureAt = 0, 0
		e.stored = stScheduled
		e.nextRetry = now + int64(res.RequeueAfter)
		e.delay, e.source = int64(res.RequeueAfter), srcRequeueAfter
		e.sameErrorCount = 0
		e.addAttempt(attempt{at: now, duration: dur, delay: res.RequeueAfter, outcome: outRequeueAfter})
	case res.Requeue: //nolint:staticcheck // controller-runtime still honours it
		e.stored = stBackoff
		e.sameErrorCount = 0
		e.addAttempt(attempt{at: now, duration: dur, outcome: outRequeue})
		e.pendingDelay = true
	default:
		// A success is forgotten: the limiter's counter goes back to 0.
		e.failures = 0
		e.stored = stIdle
		e.nextRetry, e.delay, e.source = 0, 0, srcNone
		e.sameErrorCount = 0
		e.firstFailureAt = 0
		e.lastSuccessAt = now
		e.addAttempt(attempt{at: now, duration: dur, outcome: outSuccess})
	}
	s.release(sh)
}

// panicked records a reconcile that panicked, as controller-runtime reports it
// when it recovers the panic into an error.
func (s *store[T]) panicked(item T, r any, began int64) {
	s.finished(item, reconcile.Result{}, fmt.Errorf("panic: %v [recovered]", r), began)
}

// userForgot records a forget asked for through the endpoint. With requeue the
// key is ready again now (or after release, when a bulk retry is spread).
func (s *store[T]) userForgot(item T, requeued bool, release time.Duration) {
	now := s.now()
	sh, e := s.acquire(item, now)
	e.failures, e.firstFailureAt = 0, 0
	e.addAttempt(attempt{at: now, delay: release, outcome: outForgotten})
	switch {
	case requeued && release > 0:
		e.stored = stScheduled
		e.nextRetry, e.delay, e.source = now+int64(release), int64(release), srcSpread
	case requeued:
		e.nextRetry, e.delay, e.source = 0, 0, srcNone
		if e.queuedAt == 0 {
			e.queuedAt = now
		}
	}
	s.release(sh)
}
