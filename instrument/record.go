package instrument

import (
	"errors"
	"fmt"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// errTerminal is what errors.Is compares with to spot a terminal error; built
// once, because TerminalError allocates.
var errTerminal = reconcile.TerminalError(nil)

// This file holds what each decorator records. Every method changes a few
// fields of one entry under its shard lock: no I/O, no calls out.

// limited records a limiter's When: the key failed (again) and waits delay.
func (s *store[T]) limited(item T, delay time.Duration, source uint8, tracked bool) {
	pq, seen := s.pq.Load(), s.seesHandouts.Load()
	s.withEntry(item, 0, func(e *entry[T]) {
		now := s.whenNow(e)
		e.lastSeen = now
		e.limited(now, delay, source, pq, seen, tracked)
	})
}

// whenNow is the time of a When on e: the time of the outcome it follows
// when the reconciler decorator has just recorded one (controller-runtime
// requeues right after Reconcile returns, in the same goroutine: both
// queues' waits start microseconds later, and the store keeps microseconds),
// else the clock's. Reading the clock is most of a When's cost on some
// machines (100 ns in a VM), and bare client-go's exponential limiter reads
// none.
func (s *store[T]) whenNow(e *entry[T]) int64 {
	if e.pendingDelay && e.lastReconcileAt != 0 {
		return e.lastReconcileAt
	}
	return s.now()
}

// limitedFused is a fused limiter's When: it counts the requeue in the
// key's entry, chooses the delay as client-go would, and records it, under
// one lock. The bucket's token is taken first, outside the lock, as
// client-go's MaxOf takes it whatever the exponential part says; without a
// bucket no clock is read for the decision, and the record's time is
// whenNow's.
func (s *store[T]) limitedFused(item T, f *fused, tracked bool) time.Duration {
	var bucket time.Duration
	var now int64
	if f.reserve != nil {
		t := s.clock.Now()
		now, bucket = onGrid(t.UnixNano()), f.reserve(t)
	}
	pq, seen := s.pq.Load(), s.seesHandouts.Load()
	var delay time.Duration
	if s.withEntry(item, now, func(e *entry[T]) {
		at := now
		if at == 0 {
			at = s.whenNow(e)
			e.lastSeen = at
		}
		var src uint8
		delay, src = f.delay(e.requeues, bucket)
		e.requeues++
		e.limited(at, delay, src, pq, seen, tracked)
	}) {
		return delay
	}
	// The store is at its bound: the count is kept aside, not lost.
	delay, _ = f.delay(s.spill.inc(item), bucket)
	return delay
}

// resetCount is a fused limiter's Forget when nothing else is recorded:
// the key's count goes back to 0, wherever it is kept.
func (s *store[T]) resetCount(item T) {
	if !s.withItem(item, func(e *entry[T]) { e.requeues = 0 }) {
		s.spill.take(item)
	}
}

// requeues is a fused limiter's NumRequeues.
func (s *store[T]) requeues(item T) int {
	var n int32
	if !s.withItem(item, func(e *entry[T]) { n = e.requeues }) {
		n = s.spill.get(item)
	}
	return int(n)
}

// limited applies a limiter's When at now to the entry.
func (e *entry[T]) limited(now int64, delay time.Duration, source uint8, pq, seen, tracked bool) {
	e.failures++
	if e.firstFailureAt == 0 {
		e.firstFailureAt = now
	}
	if pq && !seen {
		// Nothing reports handouts: a When on the priority queue follows
		// one, and handing the key out consumed any wait it had.
		e.nextRetry = 0
	}
	e.schedule(now, delay, source, pq)
	if e.queuedAt != 0 && e.readyCause == trigEvent && delay > 0 {
		// A watch event came since the queue handed the key out (often the
		// reconcile's own status write): the key is ready already, and both
		// queues run it again at once — the priority queue keeps a ready
		// item ready, the delaying queue re-queues a key made dirty while it
		// was processing on Done. The event cut this delay short: the same
		// bypass as an event that comes while the retry waits.
		e.readyPreempted = true
	}
	// Even while running: without the reconciler decorator, the classic
	// queue calls When before Done, and this delay is that reconcile's
	// outcome. With it, the reconcile has already finished.
	e.stored = stBackoff
	e.outcomeSinceGet = true
	switch {
	case e.pendingDelay:
		// The reconciler recorded this attempt; the limiter adds its delay.
		e.setLastDelay(delay)
		e.pendingDelay = false
	case !tracked:
		// Nobody reports reconcile outcomes: a rate-limited add is the failure.
		e.totalFailures++
		e.addAttempt(attempt{at: now, delay: delay, outcome: outError, trigger: e.trigger, preempted: e.preempted})
	}
}

// forgot records a limiter's Forget. Untracked, a Forget after a reconcile is
// its success (or precedes a RequeueAfter, which after then records),
// whatever the key did before. Tracked, the reconcile's outcome has already
// been recorded, and a success or RequeueAfter left nothing to reset; a
// Forget that finds a failure streak is the controller giving up on the key
// without retrying it (client-go's handleErr after its last retry), which
// leaves it failed until the next change. Either way a fused limiter's
// count goes back to 0 (a delegating limiter keeps none here: 0 already).
func (s *store[T]) forgot(item T, tracked bool) {
	if tracked {
		// Only a key with a failure streak on record can be given up on: an
		// unknown key is not tracked for a Forget alone.
		if !s.withItem(item, func(e *entry[T]) {
			e.requeues = 0
			e.outcomeSinceGet = true
			if e.stored != stBackoff || (e.failures == 0 && !e.pendingDelay) {
				return
			}
			now := s.now()
			e.setReset(reset{at: now, failures: e.failures, by: api.ResetGaveUp})
			// Failing still (since firstFailureAt): the controller stopped
			// retrying, nothing succeeded.
			e.failures, e.pendingDelay = 0, false
			e.stored = stFailed
			e.clearRetry()
		}) {
			s.spill.take(item)
		}
		return
	}
	if !s.withEntry(item, 0, func(e *entry[T]) {
		e.requeues = 0
		e.outcomeSinceGet = true
		e.failures, e.firstFailureAt = 0, 0
		if e.stored != stIdle {
			now := s.now()
			e.lastSeen = now
			e.stored = stIdle
			e.clearRetry()
			e.lastSuccessAt = now
			e.addAttempt(attempt{at: now, outcome: outSuccess, trigger: e.trigger, preempted: e.preempted})
		}
	}) {
		s.spill.take(item)
	}
}

// added records an add that is not a retry: a watch event or a resync.
func (s *store[T]) added(item T) {
	now := s.now()
	pq := s.pq.Load()
	s.withEntry(item, now, func(e *entry[T]) {
		e.lastEventAt = now
		e.ready(now, trigEvent, pq)
	})
}

// after records an AddAfter: a RequeueAfter, or a delayed add of the user's.
func (s *store[T]) after(item T, d time.Duration) {
	now := s.now()
	pq := s.pq.Load()
	s.withEntry(item, now, func(e *entry[T]) {
		if e.provisional && !e.earlier && e.source == srcRequeueAfter && e.delay == int64(d) {
			// The RequeueAfter the reconciler decorator just recorded: the
			// queue's own start of the wait replaces it.
			e.nextRetry = 0
		}
		e.provisional = false
		e.schedule(now, d, srcRequeueAfter, pq)
		e.stored = stScheduled // even while running, as in limited
		e.outcomeSinceGet = true
	})
}

// requeued records a rate-limited add whose When comes later (the priority
// queue calls it from its own goroutine): the worker did report an outcome.
// No clock read: the When that follows marks the key seen.
func (s *store[T]) requeued(item T) {
	s.withEntry(item, 0, func(e *entry[T]) { e.outcomeSinceGet = true })
}

// dequeued records the queue handing the key to a worker.
func (s *store[T]) dequeued(item T) {
	now := s.now()
	pq := s.pq.Load()
	s.withEntry(item, now, func(e *entry[T]) {
		e.begin(now, pq)
		e.outcomeSinceGet = false
	})
}

// done records the worker handing the key back. A reconcile that returned no
// outcome at all — no requeue, no Forget — ended in a terminal error. Only
// then is the clock read: the handout and the outcome marked the key seen.
func (s *store[T]) done(item T) {
	s.withEntry(item, 0, func(e *entry[T]) {
		if e.running && !e.outcomeSinceGet {
			now := s.now()
			e.lastSeen = now
			e.stored = stFailed
			e.clearRetry()
			e.totalFailures++
			e.addAttempt(attempt{at: now, duration: time.Duration(now - e.startedAt), outcome: outTerminal,
				trigger: e.trigger, preempted: e.preempted})
		}
		e.running, e.startedAt = false, 0
	})
}

// started records a reconcile beginning at now, a time the caller has read
// already (it times the reconcile from it): one clock read less per reconcile.
func (s *store[T]) started(item T, now int64) {
	pq := s.pq.Load()
	s.withEntry(item, now, func(e *entry[T]) { e.begin(now, pq) })
}

// startedAt records a reconcile beginning and returns its start: inline
// (see store.inline), the handout the queue decorator has just recorded
// (microseconds before, in the same goroutine) is the start, and no clock
// is read; else the clock's now, as started.
func (s *store[T]) startedAt(item T) int64 {
	if !s.inline.Load() {
		now := s.now()
		s.started(item, now)
		return now
	}
	pq := s.pq.Load()
	var began int64
	s.withEntry(item, 0, func(e *entry[T]) {
		if !e.running || e.startedAt == 0 {
			now := s.now()
			e.lastSeen = now
			e.begin(now, pq)
		}
		began = e.startedAt
	})
	if began == 0 { // not tracked: the store is at its bound
		began = s.now()
	}
	return began
}

// finished records a reconcile's outcome exactly as controller-runtime acts on it.
func (s *store[T]) finished(item T, res reconcile.Result, err error, began int64) {
	now := s.now()
	var msg string
	terminal := false
	if err != nil {
		msg = err.Error() // outside the lock: Error() is the user's code
		terminal = isTerminalErr(err)
	}
	pq := s.pq.Load()
	unclassified := false
	s.withEntry(item, now, func(e *entry[T]) {
		dur := time.Duration(now - began)
		e.running, e.startedAt = false, 0
		e.outcomeSinceGet = true
		e.reconciles++
		e.lastReconcileAt, e.lastDuration = now, int64(dur)
		e.pendingDelay = false
		a := attempt{at: now, duration: dur, trigger: e.trigger, preempted: e.preempted}
		switch {
		case terminal:
			e.stored = stFailed
			e.clearRetry()
			e.totalFailures++
			if e.firstFailureAt == 0 {
				e.firstFailureAt = now // failing since, for the attention order
			}
			e.setError(msg, e.isLastError(msg), classPermanent, now)
			a.err, a.class, a.outcome = e.lastErr, classPermanent, outTerminal
		case err != nil:
			e.stored = stBackoff
			e.totalFailures++
			if e.firstFailureAt == 0 {
				e.firstFailureAt = now
			}
			// The same error again keeps its class; a new one is classified
			// below, outside the lock, once.
			class, same := classNone, e.isLastError(msg)
			if same {
				class = e.errClass
			}
			unclassified = class == classNone
			e.setError(msg, same, class, now)
			a.err, a.class, a.outcome = e.lastErr, class, outError
			e.pendingDelay = true
		case res.RequeueAfter > 0:
			// controller-runtime forgets the key before scheduling it.
			e.failures, e.firstFailureAt = 0, 0
			e.stored = stScheduled
			// Provisional: the queue decorator, if there is one, records the
			// AddAfter that follows, when the queue starts counting.
			e.schedule(now, res.RequeueAfter, srcRequeueAfter, pq)
			e.provisional = true
			e.sameErrorCount = 0
			a.delay, a.outcome = res.RequeueAfter, outRequeueAfter
		case res.Requeue: //nolint:staticcheck // controller-runtime still honours it
			e.stored = stBackoff
			e.sameErrorCount = 0
			a.outcome = outRequeue
			e.pendingDelay = true
		default:
			// A success is forgotten: the limiter's counter goes back to 0. A
			// wait the delaying queue still holds will run the key once more.
			e.failures = 0
			e.stored = stIdle
			if pq || e.nextRetry <= now {
				e.clearRetry()
			}
			e.sameErrorCount = 0
			e.firstFailureAt = 0
			e.lastSuccessAt = now
			a.outcome = outSuccess
		}
		e.addAttempt(a)
	})
	if unclassified {
		s.classified(item, now, classify(err))
	}
}

// classified sets the class of the error finished recorded at now, unless a
// newer outcome has been recorded since.
func (s *store[T]) classified(item T, at int64, class uint8) {
	s.withItem(item, func(e *entry[T]) {
		if e.lastErrAt != at {
			return
		}
		e.errClass = class
		e.setLastClass(at, class)
	})
}

// panicked records a reconcile that panicked, as controller-runtime reports it
// when it recovers the panic into an error.
func (s *store[T]) panicked(item T, r any, began int64) {
	s.finished(item, reconcile.Result{}, fmt.Errorf("panic: %v [recovered]", r), began)
}

// userForgot records a forget asked for through the endpoint. With requeue the
// key is ready again now (or after release, when a bulk retry is spread): as
// the queue has it, a sooner retry already pending keeps its time.
func (s *store[T]) userForgot(item T, requeued bool, release time.Duration, user, reason string) {
	now := s.now()
	pq := s.pq.Load()
	s.withEntry(item, now, func(e *entry[T]) {
		e.setReset(reset{at: now, failures: e.failures, by: api.ResetForget, user: user, reason: reason})
		// The count restarts, not the failure: the key is failing since
		// firstFailureAt until a reconcile succeeds.
		e.failures = 0
		e.addAttempt(attempt{at: now, delay: release, outcome: outForgotten, trigger: trigForget})
		switch {
		case requeued && release > 0:
			e.schedule(now, release, srcSpread, pq)
			// A failing key waits for its retry, released by the spread
			// instead of the limiter: backing off (delaySource spread), and
			// failing until a reconcile succeeds. Scheduled is a planned
			// re-check, not a failure: what a key that was not failing waits for.
			if e.stored == stBackoff || e.stored == stFailed || e.firstFailureAt != 0 {
				e.stored = stBackoff
			} else {
				e.stored = stScheduled
			}
		case requeued:
			e.ready(now, trigForget, pq)
		}
	})
}

// isTerminalErr reports whether err is controller-runtime's terminal error.
func isTerminalErr(err error) bool { return errors.Is(err, errTerminal) }
