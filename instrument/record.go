package instrument

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// This file holds what the limiter and the queue's adds record (a
// reconcile's own records are in outcome.go). Every method changes a few
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
	if e, sh := s.lockEntry(item, now); e != nil {
		at := now
		if at == 0 {
			at = s.whenNow(e)
			e.lastSeen = at
		}
		delay, src := f.delay(e.requeues, bucket)
		e.requeues++
		e.limited(at, delay, src, pq, seen, tracked)
		sh.mu.Unlock()
		return delay
	}
	// The store is at its bound: the count is kept aside, not lost.
	delay, _ := f.delay(s.spill.inc(item), bucket)
	return delay
}

// resetCount is a fused limiter's Forget when nothing else is recorded:
// the key's count goes back to 0, wherever it is kept.
func (s *store[T]) resetCount(item T) {
	e, sh := s.lockItem(item)
	if e == nil {
		s.spill.take(item)
		return
	}
	e.requeues = 0
	sh.mu.Unlock()
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
