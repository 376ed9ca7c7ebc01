package instrument

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// This file holds what a reconcile records: the queue's handout, the
// reconciler decorator's start and outcome, and the queue's Done. They run
// on the worker's goroutine, once each per reconcile, so that each is one
// lock of one shard and no closure; the start's entry is carried to the
// outcome (finishedIn) instead of found again.

// errTerminal is what errors.Is compares with to spot a terminal error; built
// once, because TerminalError allocates.
var errTerminal = reconcile.TerminalError(nil)

// dequeued records the queue handing the key to a worker.
func (s *store[T]) dequeued(item T) {
	now := s.now()
	pq := s.pq.Load()
	if e, sh := s.lockEntry(item, now); e != nil {
		e.begin(now, pq)
		e.outcomeSinceGet = false
		sh.mu.Unlock()
	}
}

// done records the worker handing the key back. A reconcile that returned no
// outcome at all — no requeue, no Forget — ended in a terminal error. Only
// then is the clock read: the handout and the outcome marked the key seen.
func (s *store[T]) done(item T) {
	if e, sh := s.lockEntry(item, 0); e != nil {
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
		sh.mu.Unlock()
	}
}

// started records a reconcile beginning at now, a time the caller has read
// already (it times the reconcile from it): one clock read less per reconcile.
func (s *store[T]) started(item T, now int64) {
	if e, sh := s.lockEntry(item, now); e != nil {
		e.begin(now, s.pq.Load())
		sh.mu.Unlock()
	}
}

// startedAt records a reconcile beginning and returns its start: inline
// (see store.inline), the handout the queue decorator has just recorded
// (microseconds before, in the same goroutine) is the start, and no clock
// is read; else the clock's now, as started. Inline, it also returns the
// key's entry, which finishedIn then locks without finding it again.
func (s *store[T]) startedAt(item T) (int64, *entry[T]) {
	if !s.inline.Load() {
		now := s.now()
		s.started(item, now)
		return now, nil
	}
	e, sh := s.lockEntry(item, 0)
	if e == nil { // not tracked: the store is at its bound
		return s.now(), nil
	}
	if !e.running || e.startedAt == 0 {
		now := s.now()
		e.lastSeen = now
		e.begin(now, s.pq.Load())
	}
	began := e.startedAt
	sh.mu.Unlock()
	return began, e
}

// finished records a reconcile's outcome exactly as controller-runtime acts on it.
func (s *store[T]) finished(item T, res reconcile.Result, err error, began int64) {
	s.finishedIn(nil, item, res, err, began)
}

// finishedIn is finished for a reconcile whose start found held, item's
// entry (nil if it did not).
func (s *store[T]) finishedIn(held *entry[T], item T, res reconcile.Result, err error, began int64) {
	now := s.now()
	var msg string
	terminal := false
	if err != nil {
		msg = err.Error() // outside the lock: Error() is the user's code
		terminal = s.isTerminal(err)
	}
	unclassified := false
	if e, sh := s.lockHeld(held, item, now); e != nil {
		unclassified = e.finish(now, began, res, err != nil, msg, terminal, s.pq.Load())
		sh.mu.Unlock()
	}
	if unclassified {
		s.classified(item, now, classify(err))
	}
}

// finish applies a reconcile's outcome at now to the entry: failed with
// msg (terminal or not), else res. It reports an error whose class is not
// known yet: the caller classifies it outside the lock.
func (e *entry[T]) finish(now, began int64, res reconcile.Result, failed bool, msg string, terminal, pq bool) (unclassified bool) {
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
	case failed:
		e.stored = stBackoff
		e.totalFailures++
		if e.firstFailureAt == 0 {
			e.firstFailureAt = now
		}
		// The same error again keeps its class; a new one is classified
		// by the caller, outside the lock, once.
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
	return unclassified
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

// isTerminalErr reports whether err is controller-runtime's terminal error.
func isTerminalErr(err error) bool { return errors.Is(err, errTerminal) }

// isTerminal is isTerminalErr, told at once for an error of the type the
// last plain error had: errors.Is asserts three interfaces on each error of
// the chain (about 10 ns a failing reconcile, profiled). A plain error, one
// with no Is method and no Unwrap, is never terminal (the terminal error
// has both), and a controller fails with errors of few types.
func (s *store[T]) isTerminal(err error) bool {
	t := errType(err)
	if t == s.plainErr.Load() {
		return false
	}
	if isTerminalErr(err) {
		return true
	}
	if isPlainErr(err) {
		s.plainErr.Store(t)
	}
	return false
}

// errType is the word of err that tells its dynamic type: its itab, which
// the runtime never frees, so that keeping it as a number is safe.
func errType(err error) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&err))[0])
}

// isPlainErr reports whether err has no Is method and wraps nothing, so
// that errors.Is(err, target) is only err == target.
func isPlainErr(err error) bool {
	switch err.(type) {
	case interface{ Is(error) bool }, interface{ Unwrap() error }, interface{ Unwrap() []error }:
		return false
	}
	return true
}
