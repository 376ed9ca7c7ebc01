package logs

import (
	"bytes"
	"maps"
	"sync"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxExampleBytes bounds the unreadable line kept as an example.
const maxExampleBytes = 1 << 10

// diagnostics counts what the reader made of a log: the records of each
// dialect, the lines that looked like failures but could not be read (with
// the first as an example), the records without a time, those whose time
// could not be true, and those whose year was not the log's (times.go).
type diagnostics struct {
	mu         sync.Mutex
	recognised map[string]int
	// run records of runDialect are not in recognised yet: a log's
	// records are mostly of one dialect, and counting them in the map was
	// a hash of its name a record (flushRunLocked adds them).
	runDialect  string
	markCount   // run is the run's records; the marks count every record
	unreadable  int
	example     string
	exampleLine int // the log's line the example is
	// outOfOrder counts records older than one before them in the file,
	// late those applied older than their key's newest; newestFirst says
	// a saved log was read reversed (order.go).
	outOfOrder, late int
	newestFirst      bool
}

// ordered notes what order.go learnt of the log's order.
func (d *diagnostics) ordered(outOfOrder, late int, newestFirst bool) {
	d.mu.Lock()
	d.outOfOrder, d.late, d.newestFirst = outOfOrder, late, d.newestFirst || newestFirst
	d.mu.Unlock()
}

// readMarks are what the reader noted of one record's time.
type readMarks struct {
	untimed, implausible, yearAssumed bool
}

// markCount counts records and their readMarks.
type markCount struct {
	run, untimed, implausible, yearAssumed int
}

// count counts one record.
func (c *markCount) count(m readMarks) {
	c.run++
	if m.untimed {
		c.untimed++
	}
	if m.implausible {
		c.implausible++
	}
	if m.yearAssumed {
		c.yearAssumed++
	}
}

// add counts o's records too.
func (c *markCount) add(o markCount) {
	c.run += o.run
	c.untimed += o.untimed
	c.implausible += o.implausible
	c.yearAssumed += o.yearAssumed
}

func (d *diagnostics) record(dialect string, m readMarks) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if dialect != d.runDialect {
		d.flushRunLocked()
		d.runDialect = dialect
	}
	d.count(m)
}

// diagTally is a run of records of one dialect not yet counted in
// diagnostics, with their marks: a parallel read's applier counts a chunk's
// records here and adds them under one lock (a lock of its own a record
// was a fortieth of BenchmarkRead1M's time). Between chunks, and before a
// held batch is applied (redateHeldLocked takes back a year assumed), it
// is added: what diagnostics says is at most a chunk behind the records
// read, which a read holds until its end anyway (order.go).
type diagTally struct {
	on      bool // the applier counts here (recordRead)
	dialect string
	markCount
}

// recordRead is diag.record, counted in the tally when it is on.
func (s *Store) recordRead(dialect string, m readMarks) {
	t := &s.tally
	if !t.on {
		s.diag.record(dialect, m)
		return
	}
	if dialect != t.dialect {
		s.flushTally()
		t.dialect = dialect
	}
	t.count(m)
}

// flushTally adds the tally to diag.
func (s *Store) flushTally() {
	t := &s.tally
	if t.run == 0 {
		return
	}
	d := &s.diag
	d.mu.Lock()
	if t.dialect != d.runDialect {
		d.flushRunLocked()
		d.runDialect = t.dialect
	}
	d.add(t.markCount)
	d.mu.Unlock()
	t.markCount = markCount{}
}

// flushRunLocked adds the run of records not counted yet to recognised.
func (d *diagnostics) flushRunLocked() {
	if d.run == 0 {
		return
	}
	if d.recognised == nil {
		d.recognised = map[string]int{}
	}
	d.recognised[d.runDialect] += d.run
	d.run = 0
}

// yearDated counts a record no longer as a year assumed: the log's dated
// lines dated it (redateHeldLocked).
func (d *diagnostics) yearDated() {
	d.mu.Lock()
	d.yearAssumed = max(0, d.yearAssumed-1)
	d.mu.Unlock()
}

// failed counts the log's line n as one that looked like a failure but
// could not be read, the first such as the example.
func (d *diagnostics) failed(line []byte, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.unreadable++
	if d.example == "" {
		line = bytes.TrimRight(line, "\r\n")
		d.example, d.exampleLine = truncateError(string(line[:min(len(line), maxExampleBytes)])), n
	}
}

// retract takes back line n's count: what it said was read after all
// (innercand.go). The next line not read becomes the example.
func (d *diagnostics) retract(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.unreadable--
	if d.exampleLine == n {
		d.example, d.exampleLine = "", 0
	}
}

// LogRead says how much of the log the store has read and understood.
func (s *Store) LogRead() *api.LogRead {
	s.diag.mu.Lock()
	defer s.diag.mu.Unlock()
	s.diag.flushRunLocked()
	lr := &api.LogRead{
		Lines:      int(s.lines.Load()),
		Recognised: maps.Clone(s.diag.recognised),
		Unreadable: s.diag.unreadable,
		Example:    s.diag.example,
		Untimed:    s.diag.untimed,
		// A time that could not be true is also untimed: counted in both.
		Implausible: s.diag.implausible,
		YearAssumed: s.diag.yearAssumed,
		Evicted:     int(s.evicted.Load()),
		OutOfOrder:  max(s.diag.outOfOrder, s.diag.late),
		NewestFirst: s.diag.newestFirst,
		Ended:       s.ended.Load(),
	}
	if why := s.stopped.Load(); why != nil {
		lr.Stopped = *why
	}
	if at := s.evictedSince.Load(); at != nil {
		lr.EvictedSince = *at
	}
	return lr
}

// MarkEnded says the live log being read has ended (its pipe closed): no
// line will come after those read. LogRead reports it, so that a view
// following the log does not look live when nothing more can arrive.
func (s *Store) MarkEnded() { s.ended.Store(true) }

// MarkStopped says the live log being read stopped before its end, why
// and what to do (api.LogRead.Stopped): a view following the log says it
// on screen, where a message on stderr would be hidden until it quits.
func (s *Store) MarkStopped(why string) {
	s.stopped.Store(&why)
	s.ended.Store(true)
}
