package logs

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// trigger is why a reconcile beginning at at ran, read from what the key
// was waiting for: its retry, or its RequeueAfter (an event when it came
// well before either: preempted); after a success or a terminal error only
// an event re-adds a key. Empty for a key's first reconcile in the log.
func (e *entry) trigger(at time.Time) (string, bool) {
	switch e.state {
	case api.StateBackoff, api.StateScheduled:
		if at.IsZero() || e.nextRetry.IsZero() {
			return "", false // no time to compare: why it ran is unknown
		}
		if at.Add(preemptSlack).Before(e.nextRetry) {
			return api.TriggerEvent, true
		}
		if e.state == api.StateScheduled {
			return api.TriggerRequeueAfter, false
		}
		return api.TriggerRetry, false
	case api.StateQueued:
		if e.released {
			return api.TriggerForget, false // a forget with requeue added it
		}
	case api.StateIdle, api.StateFailed:
		if e.reconciles > 0 {
			return api.TriggerEvent, false
		}
	}
	return "", false
}

// inferred words a trigger read off a log that does not show successes
// (entry.unlogged) as what the log can show: an attempt well before its
// retry is sooner (a watch event, or a success or forget not logged, then
// an event), one well after it (by more than a timestamp's whole second:
// preemptSlack, as for sooner), or after a streak's end was inferred
// (endInferred), is late (the retry succeeded unlogged and an event came
// later, or it waited for a worker). Neither is stated as an event: only a
// log with V(5) lines (or the endpoint) tells them apart.
func (e *entry) inferred(at time.Time, trigger string, preempted bool) (string, bool) {
	switch {
	case trigger == api.TriggerEvent && preempted:
		return api.TriggerSooner, false
	case e.endedUnlogged:
		return api.TriggerLate, false
	case trigger == api.TriggerRetry && !at.IsZero() && at.After(e.nextRetry.Add(preemptSlack)):
		// Late for the retry pending from before (EarlierRetry), but the
		// history's row names the delay of the last failure: judged by that
		// row's time, which is when the retry came, it is no later than the
		// label says (an attempt on time for the row's delay is that retry:
		// the queue dropped the earlier wait, as the priority queue does).
		if row := e.failAt.Add(e.delay); e.nextRetry.Before(row) && !e.failAt.IsZero() {
			switch {
			case at.Before(row.Add(-preemptSlack)):
				return api.TriggerSooner, false
			case !at.After(row.Add(preemptSlack)):
				return api.TriggerRetry, false
			}
		}
		return api.TriggerLate, false
	}
	return trigger, preempted
}
