package logs

import "time"

// A saved read dates a year-less klog header by the log's dated lines, any
// of them: those after it too. A line is parsed before the lines after it
// are read, so a header before the log's first dated line (argo-rollouts'
// klog errors before its logrus lines, batch 6's 101) takes the reading
// clock's year when parsed; but a saved read holds its records until the
// end (order.go), and by then the log's dated lines are known: the held
// headers dated by the clock are dated again by them (redateHeldLocked),
// before they are put in time order. A live log cannot wait: its headers
// before the first dated line keep the clock's year (LogRead.YearAssumed).

// nearestYear is at in the year that puts it nearest ref: klogTime's rule
// for a header dated by the log's lines.
func nearestYear(at, ref time.Time) time.Time {
	at = at.AddDate(ref.Year()-at.Year(), 0, 0)
	for _, other := range []time.Time{at.AddDate(-1, 0, 0), at.AddDate(1, 0, 0)} {
		if other.Sub(ref).Abs() < at.Sub(ref).Abs() {
			at = other
		}
	}
	return at
}

// redateHeldLocked dates again, by the log's dated lines, the held records
// whose year-less header took the clock's year, and counts them no longer
// as years assumed. When one moves, the batch's order is noted again from
// its start, as hold noted it, with the times they have now.
func (s *Store) redateHeldLocked() {
	d := s.dated.Load()
	if d == nil || s.order.assumed == 0 {
		return
	}
	s.order.assumed = 0
	moved := 0
	for i := range s.order.held {
		h := &s.order.held[i]
		if !h.yearAssumed {
			continue
		}
		h.yearAssumed = false
		s.diag.yearDated()
		if at := nearestYear(h.f.At, d.at); !at.Equal(h.f.At) {
			h.f.At = at
			moved++
		}
	}
	if moved > 0 {
		s.order.renote()
	}
}

// batchMarks are what ordering notes of the records before a batch held:
// where renote starts from.
type batchMarks struct {
	prev, newest         time.Time
	up, down, outOfOrder int
}

// mark keeps the ordering's notes as a batch of held records starts.
func (o *ordering) mark() {
	o.start = batchMarks{prev: o.prev, newest: o.newest, up: o.up, down: o.down, outOfOrder: o.outOfOrder}
}

// renote notes the held records' order again from the batch's start, and
// the time each sorts by, as hold did.
func (o *ordering) renote() {
	b := o.start
	o.prev, o.newest, o.up, o.down, o.outOfOrder = b.prev, b.newest, b.up, b.down, b.outOfOrder
	for i := range o.held {
		h := &o.held[i]
		if h.decided {
			continue // holdDecided's: not noted (its lines came before)
		}
		o.note(h.f.At)
		h.at = h.f.At
		if h.at.IsZero() {
			h.at = o.prev
		}
	}
}
