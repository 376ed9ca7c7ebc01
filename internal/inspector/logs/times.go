package logs

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A log's times are the log's, and a reader takes none it cannot stand
// behind: a line without a time is "time unknown" (its record counts, but
// moves no clock: no "failing since" it, no retry computed from when it was
// read); a time before saneFrom, or more than futureSlack past the reading
// clock, is a time no controller wrote (0001-01-01, 9999-12-31, a counter
// read as an epoch) and is unknown too, and said so (LogRead.Implausible);
// a klog or journald header, which has no year, takes its year from the
// log's own dated lines, else from the reading clock, and says so
// (LogRead.YearAssumed). The log's end is its latest plausible time, and a
// key's history is in time order whatever order its lines came in.
var saneFrom = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// futureSlack is how far past the reading clock a line's time may be: a
// pod's clock runs ahead of ours by seconds, not by days.
const futureSlack = 24 * time.Hour

// plausible says whether at is a time a controller can have logged when read
// at now. The zero time is unknown, not implausible.
func plausible(at, now time.Time) bool {
	return at.IsZero() || !at.Before(saneFrom) && !at.After(now.Add(futureSlack))
}

// plausibleBy is plausible(at, now) given limit, now plus futureSlack.
func plausibleBy(at, limit time.Time) bool {
	return at.IsZero() || !at.Before(saneFrom) && !at.After(limit)
}

// yearRef is the time a year-less header is dated by: the newest dated line
// of the log so far (its year is the log's), else the reading clock, and
// whether it is the log's.
func (s *Store) yearRef(now time.Time) (time.Time, bool) {
	if d := s.dated.Load(); d != nil {
		return d.at, true
	}
	return now, false
}

// noteDated keeps at, a time with its year, as the log's newest dated time,
// to the hour: a year is chosen months either side, and a log of a line a
// second stores one time an hour, not one a line.
func (s *Store) noteDated(at time.Time) {
	if at.IsZero() {
		return
	}
	for {
		d := s.dated.Load()
		if d != nil && at.Before(d.until) {
			return
		}
		// A copy, so that only a stored time reaches the heap.
		if v := new(datedTime); s.swapDated(d, v, at) {
			return
		}
	}
}

// datedTime is Store.dated's value: the time, and the hour after it, before
// which a newer time is not kept (noteDated asks on every record: the hour
// added once, not each time).
type datedTime struct{ at, until time.Time }

func (s *Store) swapDated(old, v *datedTime, at time.Time) bool {
	*v = datedTime{at: at, until: at.Add(time.Hour)}
	return s.dated.CompareAndSwap(old, v)
}

// lateLocked applies a record older than its key's newest (logs merged from
// replicas, lines pasted newest first): it happened before what the key is
// now, so it counts, and takes its place in the history, but changes no
// state, retry or last error. A failure within the key's streak moves the
// streak's start back to it: first and last times are the minimum and the
// maximum, whatever order the lines came in.
func (e *entry) lateLocked(r Record) {
	a := api.Attempt{At: r.At, Error: r.Error}
	switch r.What {
	case ErrorLine:
		a.Outcome = api.OutcomeError
		if r.Terminal {
			a.Outcome = api.OutcomeTerminal
		}
		a.Class = Classify(truncateError(r.Error), r.Terminal)
		a.Error = truncateError(r.Error)
		e.totalFailures++
		if e.state == api.StateBackoff && e.failures > 0 && !r.GaveUp && !r.Terminal {
			e.failures++ // the limiter counted it when it happened
			if e.firstFailure.IsZero() || r.At.Before(e.firstFailure) {
				e.firstFailure = r.At
			}
		}
	case SuccessLine:
		a.Outcome = api.OutcomeSuccess
		if r.At.After(e.lastSuccess) {
			e.lastSuccess = r.At
		}
	case RequeueAfterLine:
		a.Outcome, a.Delay.Duration = api.OutcomeRequeueAfter, r.RequeueAfter
	case RequeueLine:
		a.Outcome = api.OutcomeRequeue
	default:
		return // a start long over, or a queue's view of the past
	}
	e.reconciles++
	e.insertAttempt(a)
}

// insertAttempt puts a in the history in time order (history.insert).
func (e *entry) insertAttempt(a api.Attempt) { e.history.insert(a) }
