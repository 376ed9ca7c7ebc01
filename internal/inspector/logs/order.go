package logs

import (
	"slices"
	"time"
)

// A saved log is read in time order, whatever order its lines are in. A
// log store's export is often newest first; logs merged from replicas, or
// pasted in pieces, interleave. Read in the file's order, the same four
// lines would give another count, another streak start and another "same
// error" than sorted (issue #47 item 9). So a saved read (not Live) holds
// its records and applies them at the end of the read sorted by time,
// stably (lines of one time keep their order, a newest-first log's
// reversed first so that they do too), and says that it did: LogRead's
// OutOfOrder and NewestFirst. A live log is applied as it comes (its
// lines arrive in order): a line older than its key's newest counts in
// the key's history but changes no state (lateLocked), and is counted in
// OutOfOrder too.
//
// Memory stays bounded: at most holdCap records are held (one buffer of
// 4.6 MB, and one of the records that set a rarely set field, up to 8 MB:
// heldrecord.go; both reused); when full, the held ones are applied in order and holding goes on, so a line older
// than what was applied is late, as in a live log.
const holdCap = 1 << 14

// heldStart is the room first made for held records: a read of a pasted
// excerpt holds a few, and zeroed some 5 MB when holdCap's room was made
// for them. Past it, holdCap's is made at once (room).
const heldStart = 64

// heldRecord is a record held for time order, with its line and what the
// reader noted of its time.
type heldRecord struct {
	// f is the record's commonest fields; whole, when it sets another,
	// is 1 + its place in ordering.wholes (heldrecord.go). f.At is its time.
	f           heldFields
	whole       int32
	line        int
	implausible bool
	// yearAssumed says its year-less header took the clock's year, no
	// dated line being known yet (redateHeldLocked); decided that it was
	// held by holdDecided.
	yearAssumed, decided bool
	// note is its key's note, looked up when it was read (keynote.go).
	note *keyNote
	// at is the time it sorts by: its own, or for a record without one the
	// time of the timed record before it in the file (it stays beside it).
	at time.Time
}

// ordering is what a saved read knows of its lines' order.
type ordering struct {
	held []heldRecord
	// wholes are the held records that set a field heldFields has not,
	// whole: a buffer kept, as held is.
	wholes []Record
	// places is flushHeld's order of held, a buffer kept.
	places []int32
	// prev is the time of the previous timed record in the file's order;
	// up and down count consecutive timed records that go forward and
	// back in time.
	prev     time.Time
	up, down int
	// outOfOrder counts records older than a record before them in the
	// file; newestFirst says the file was read reversed.
	outOfOrder  int
	newestFirst bool
	// newest is the newest time seen so far in the file's order.
	newest time.Time
	// decided says a candidate was held after the records of later lines
	// (holdDecided): the held records are sorted.
	decided bool
	// late counts the records applied older than their key's newest (a
	// live log's, or past holdCap): read as history, not as the key's now.
	late int
	// start is what was noted before the held batch (renote).
	start batchMarks
	// assumed counts the held records whose year was assumed
	// (heldRecord.yearAssumed): redateHeldLocked looks for them only when
	// there are some, not through some 9 MB of records each batch.
	assumed int
}

// note notes the order of a record at t (zero: no time).
func (o *ordering) note(t time.Time) {
	if t.IsZero() {
		return
	}
	// Each time compared once (Compare): After and Before each decode both
	// times again, four times a record held.
	if !o.prev.IsZero() {
		switch t.Compare(o.prev) {
		case 1:
			o.up++
		case -1:
			o.down++
		}
	}
	switch t.Compare(o.newest) {
	case -1:
		o.outOfOrder++
	case 1:
		o.newest = t
	}
	o.prev = t
}

// holding says whether records are held for time order: a saved log's.
func (s *Store) holding() bool { return !s.opts.Live }

// hold takes a record of a saved read: it is applied at the end, in time
// order (flushHeld), or when holdCap are held. It takes no lock: the held
// batch and the notes of the log's order are the reading goroutine's alone
// (as linesApplied is), read and changed by it only, under s.mu where it
// applies the batch (flushHeld) or reads the count of late records
// applyLocked keeps. A lock a record was a twentieth of a parallel read's
// CPU time.
func (s *Store) hold(r *Record, line int, implausible bool) {
	if len(s.order.held) == 0 {
		s.order.mark()
	}
	before := s.order.outOfOrder
	s.order.note(r.At)
	at := r.At
	if at.IsZero() {
		at = s.order.prev
	}
	s.order.room()
	// Filled in place, the record copied once: room made room, and the
	// slot is zero (made so, or cleared by flushHeld), so it is not
	// cleared again first (a tenth of a record's hold).
	n := len(s.order.held)
	s.order.held = s.order.held[:n+1]
	h := &s.order.held[n]
	s.order.keep(h, r)
	h.line, h.implausible, h.at = line, implausible, at
	h.note = s.keyNoteOf(r)
	h.yearAssumed = r.Yearless && s.dated.Load() == nil
	if r.CallerLine != 0 {
		// A generic record's caller line: the store's notes (sites.go),
		// read under its lock by whoever applies a record.
		s.mu.Lock()
		s.noteSiteLocked(r)
		s.mu.Unlock()
	}
	if h.yearAssumed {
		s.order.assumed++
	}
	if s.order.outOfOrder != before {
		// The one count note changes: told when it does, not on every
		// record.
		s.mu.Lock()
		s.diag.ordered(s.order.outOfOrder, s.order.late, s.order.newestFirst)
		s.mu.Unlock()
	}
	if len(s.order.held) >= holdCap {
		s.flushHeld()
	}
}

// room makes room for one more held record: heldStart's first, then
// holdCap's, so that a long log copies its first records once.
func (o *ordering) room() {
	switch h := o.held; {
	case h == nil:
		o.held = make([]heldRecord, 0, heldStart)
	case len(h) == cap(h) && cap(h) < holdCap:
		o.held = append(make([]heldRecord, 0, holdCap), h...)
	}
}

// holdDecided holds a candidate its template's evidence admitted after
// later lines were held (evidence.go): it is put in time order with them,
// not counted as a line out of order.
func (s *Store) holdDecided(r Record, line int, implausible bool) {
	s.mu.Lock()
	at := r.At
	if at.IsZero() {
		at = s.order.prev
	}
	s.order.room()
	h := heldRecord{line: line, implausible: implausible, at: at, decided: true}
	s.order.keep(&h, &r)
	s.order.held = append(s.order.held, h)
	s.noteSiteLocked(&r)
	s.order.decided = true
	full := len(s.order.held) >= holdCap
	s.mu.Unlock()
	if full {
		s.flushHeld()
	}
}

// flushHeld applies the held records in time order.
func (s *Store) flushHeld() {
	s.flushTally() // its years assumed, before redateHeldLocked takes some back
	s.mu.Lock()
	s.redateHeldLocked()
	held := s.order.held
	// The order to apply them in, by their places in held: sorting the
	// places, not the records (some 500 bytes each), whose stable sort
	// moved them around some fifteen times over (a log whose lines go
	// back in time spent most of its read there).
	order := s.order.places[:0]
	for i := range held {
		order = append(order, int32(i))
	}
	s.order.places = order
	sorted := s.order.decided || s.order.outOfOrder > 0
	if s.order.outOfOrder > 0 && s.order.down > 0 && s.order.up*10 <= s.order.down {
		// Newest first: reversed, a second's lines keep their order.
		slices.Reverse(order)
		s.order.newestFirst = true
	}
	if sorted {
		slices.SortStableFunc(order, func(a, b int32) int { return held[a].at.Compare(held[b].at) })
	}
	s.order.decided = false
	s.diag.ordered(s.order.outOfOrder, s.order.late, s.order.newestFirst)
	if s.opts.ExplainLines == nil {
		// One lock and one clock read for the batch: applyRecord is add1
		// and nothing else, and no other record comes in between.
		s.batchNow = s.opts.Clock.Now()
		s.batchLimit = s.batchNow.Add(futureSlack)
		var r Record
		for _, i := range order {
			s.order.record(&held[i], &r)
			s.notes.flush = held[i].note
			s.add1Locked(&r, held[i].line)
			s.order.release(&held[i])
		}
		s.batchNow, s.notes.flush = time.Time{}, nil
	} else {
		// --explain-lines' callback is called without the lock.
		s.mu.Unlock()
		for _, i := range order {
			var r Record
			s.order.record(&held[i], &r)
			s.applyRecord(r, held[i].line, held[i].implausible)
			s.order.release(&held[i])
		}
		s.mu.Lock()
	}
	// The buffers are kept for the next records: one allocation a read.
	s.order.held, s.order.wholes, s.order.assumed = held[:0], s.order.wholes[:0], 0
	s.mu.Unlock()
}
