package logs

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// controller-runtime's priority queue (pkg/controller/priorityqueue,
// v0.25.2) logs, every 10 seconds and only at V(5), one line of its whole
// state: "workqueue_items" with items, every key in the queue (those
// waiting first, by readyAt, then those ready, by priority and
// addedCounter), each with
//
//   - readyAt: when a waiting key becomes ready, as the queue computed it
//     when the key was added (now + the rate limiter's When after a failed
//     reconcile, + RequeueAfter after one that asked for it; the sooner
//     when the key was already waiting); absent when the key is ready now,
//     waiting for a worker;
//   - priority: the key's (0; handler.LowPriority, -100, for an object
//     unchanged at a resync or the initial list; Result.Priority);
//   - addedCounter: the queue's own sequence number, given when the key was
//     added or became ready, which orders keys of one priority. It is not
//     a count of the key's adds or failures: the line carries no count.
//
// A key being reconciled is not in the queue (handed out, it left it), nor
// is a key a failure has just added while the queue's add buffer still
// holds it: the line's absences say nothing, and are not read.
//
// So a waiting key's readyAt is its next retry, exact: the queue's own,
// not an estimate (api.SourceQueue; a RequeueAfter's keeps its source),
// and a ready one is queued. The line's time is the tick's.

// queueSlack is how far the queue's readyAt may be from the failure line's
// time plus the estimated delay and still confirm the estimate: the queue
// takes the time when it flushes its add buffer, a little after the
// reconcile returned, and a line's stamp is truncated to its precision.
const queueSlack = 50 * time.Millisecond

// queued applies one item of a workqueue_items line logged at at.
func (s *Store) queued(controller string, it QueueItem, at time.Time) {
	e, _ := s.entryLocked(controller, it.Key, at)
	if e.state == api.StateRunning {
		// Added again while its reconcile runs (an event): the reconcile's
		// own line says what comes of it.
		return
	}
	if it.ReadyAt.IsZero() || (!at.IsZero() && !it.ReadyAt.After(at)) {
		// Ready: waiting for a worker.
		if e.state != api.StateQueued {
			e.state, e.queuedAt = api.StateQueued, at
		}
		e.stated = false
		return
	}
	switch e.state {
	case api.StateBackoff:
		e.delay, e.delaySource = e.queueDelay(it.ReadyAt), api.SourceQueue
	case api.StateScheduled:
		// A RequeueAfter's: its source stays what chose it.
		if e.delaySource == "" {
			e.delaySource = api.SourceQueue
		}
	default:
		// Waiting, but nothing in the log says why (its reconcile was before
		// the log starts): a scheduled retry of unknown origin.
		e.state, e.delay, e.delaySource = api.StateScheduled, 0, api.SourceQueue
	}
	e.nextRetry, e.stated, e.delayWords = it.ReadyAt, true, ""
}

// queueDelay is the delay of a failed key whose retry the queue logged at
// readyAt: the estimated one when readyAt confirms it (within the failure
// line's precision), else the time from the failure line to readyAt — a
// limiter other than the one assumed chose it.
func (e *entry) queueDelay(readyAt time.Time) time.Duration {
	if e.failAt.IsZero() || readyAt.Before(e.failAt) {
		return e.delay
	}
	off := readyAt.Sub(e.failAt) - e.delay
	step := time.Duration(0)
	if e.failAt.Nanosecond() == 0 {
		step = time.Second // a whole-second stamp: the failure came up to 1s after it
	}
	if off >= -queueSlack && off <= step+queueSlack {
		return e.delay
	}
	return readyAt.Sub(e.failAt)
}
