package logs

import (
	"bytes"
	"io"
	"time"
)

// A log ends at its last line, not at its last record. The prefilter
// (prefilter.go) never decodes a line that holds no dialect's marker, so
// the info lines after a key's last failure ("format subnet ovn-default",
// "Reconciling", a controller's own chatter) would leave the log's clock
// at that failure: a key whose retry was due long before the end of the
// file would read backoff, its countdown small. So a few lines are decoded
// for their time alone, where it costs nothing beside the read: a saved
// log's first and last timed lines of each chunk (parallel.go hands them
// over as it applies the chunk), and a line-by-line read's last lines
// each time it asks its reader for more (a stream: the lines seen so far);
// and the first timed line of a read, as a log newest first ends there.
// The times move the log's end (Stats.Last, the present of a saved log)
// forward, never back, and make no record.

// endScan bounds how many lines are tried, from a chunk's end or the last
// lines kept, for one with a time: a stack trace or a console line with
// no time is passed over, a long run of them gives up (the records' times
// remain).
const endScan = 64

// noteEnds moves the log's end to the last timed line of c, and for the
// read's first chunk to its first timed line too (a log newest first),
// once c's records are applied (the applier's goroutine, in the log's
// order); in is that goroutine's interner.
func (s *Store) noteEnds(c *chunk, first bool, now time.Time, in *interner) {
	n := len(c.ends)
	if s.dated.Load() == nil {
		// The year first, from any dated line of those read for the end:
		// a klog line last would take the clock's (a log of 2017 read
		// as of 2029).
		for i := n - 1; i >= max(0, n-endScan) && !s.noteYearOf(c.line(i), now, in); i-- {
		}
		for i := 0; first && s.dated.Load() == nil && i < min(n, endScan) && !s.noteYearOf(c.line(i), now, in); i++ {
		}
	}
	last := n
	for i := n - 1; i >= max(0, n-endScan); i-- {
		if s.noteEndOf(c.line(i), now, in) {
			last = i
			break
		}
	}
	for i := 0; first && i < min(last, endScan); i++ {
		if s.noteEndOf(c.line(i), now, in) {
			break
		}
	}
}

// noteYearOf notes line's time as the log's dated time when it carries
// its year, and says whether it did. in, the reading goroutine's interner
// or nil, keeps the values the line's decoding makes.
func (s *Store) noteYearOf(line []byte, now time.Time, in *interner) bool {
	at, yearless := lineAtYear(line, parseRef{at: now, intern: in})
	if at.IsZero() || yearless || !plausible(at, now) {
		return false
	}
	s.noteDated(at)
	return true
}

// noteEndOf moves the log's end to line's time, if it has one, and says
// whether it had. A line that carries its year (a logrus or JSON stamp)
// is one of the log's dated lines, which a year-less klog header is dated
// by (yearRef), whether it comes before or after that header: so the
// year is read from it first, then the line dated by it. in is as
// noteYearOf's: a parallel read decodes a line of each chunk, and each of
// its values made a string of its own (a fifth of the read's allocations).
func (s *Store) noteEndOf(line []byte, now time.Time, in *interner) bool {
	ref, fromLog := s.yearRef(now)
	at, yearless := lineAtYear(line, parseRef{at: ref, fromLog: fromLog, intern: in})
	if at.IsZero() {
		return false
	}
	if !yearless && plausible(at, now) {
		s.noteDated(at)
	}
	s.noteEnd(at, now)
	return true
}

// noteEnd moves the log's end to at when it is later and plausible: the
// log's clock, as a record's time does (applyLocked).
func (s *Store) noteEnd(at, now time.Time) {
	if at.IsZero() || !plausible(at, now) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if at.After(s.last) {
		s.last = at
		if s.opts.DatedAfter > 0 {
			s.lastLag = now.Sub(at)
		}
	}
}

// tailKeeper keeps copies of the last lines a line-by-line read applied
// (a ring of endScan), and decodes their time when its reader is about
// to read more (or the read ends): once per buffer of the log, not once
// a line. Only the reading goroutine uses it.
type tailKeeper struct {
	s     *Store
	r     io.Reader
	lines [endScan][]byte
	next  int // where the next line goes
	kept  int // lines kept since the last resolve
	// head are the read's first lines, until the first resolve.
	head     [][]byte
	headDone bool
}

// keep copies line into the ring, and the read's first lines until
// resolved.
func (t *tailKeeper) keep(line []byte) {
	if !t.headDone && len(t.head) < endScan {
		t.head = append(t.head, append([]byte(nil), line...))
	}
	t.lines[t.next] = append(t.lines[t.next][:0], line...)
	t.next = (t.next + 1) % endScan
	t.kept = min(t.kept+1, endScan)
}

// resolve moves the store's end to the newest kept line with a time (and
// the first time to the read's first timed line, as a saved log's first
// chunk's), and empties the ring. It runs once the kept lines' records
// are applied, so that a klog header is dated by the log's year.
func (t *tailKeeper) resolve() {
	if t.kept == 0 {
		return
	}
	now := t.s.opts.Clock.Now()
	for i := 1; i <= t.kept && t.s.dated.Load() == nil; i++ {
		if t.s.noteYearOf(t.lines[(t.next-i+endScan)%endScan], now, nil) {
			break
		}
	}
	for i := 0; i < len(t.head) && t.s.dated.Load() == nil; i++ {
		if t.s.noteYearOf(t.head[i], now, nil) {
			break
		}
	}
	for i := 1; i <= t.kept; i++ {
		if t.s.noteEndOf(t.lines[(t.next-i+endScan)%endScan], now, nil) {
			break
		}
	}
	t.kept = 0
	for _, line := range t.head {
		if t.s.noteEndOf(line, now, nil) {
			break
		}
	}
	t.head, t.headDone = nil, true
}

// Read resolves the lines kept before it may wait for more: a stream's
// end is its lines so far.
func (t *tailKeeper) Read(p []byte) (int, error) {
	t.resolve()
	return t.r.Read(p)
}

// lineAt is the time of one line, decoded as parse would (its collector's
// timestamp, else its format's), without reading it as a record; zero
// when it has none.
func lineAt(line []byte, ref parseRef) time.Time {
	at, _ := lineAtYear(line, ref)
	return at
}

// lineAtYear is lineAt, and whether the time came from a header without a
// year (klog's, as parseFormat's Record.Yearless), dated by ref.
func lineAtYear(line []byte, ref parseRef) (time.Time, bool) {
	line = collected(bytes.TrimRight(line, "\r\n"))
	at, body, fm, words := split(line)
	if !at.IsZero() {
		return at, false
	}
	f := fields{intern: ref.intern}
	switch fm {
	case fmtJSON:
		parseJSON(body, &f)
	case fmtKlog:
		parseKlog(body, ref, &f)
	case fmtLogfmt:
		parseLogfmt(body, &f)
	case fmtLogrus:
		parseLogrus(body, &f)
	default:
		parseConsole(body, &f)
	}
	if f.at.IsZero() && words > 0 {
		f = fields{intern: ref.intern}
		parseConsole(trimPodPrefix(line), &f)
	}
	if f.at.IsZero() {
		f = fields{intern: ref.intern}
		parsePlain(trimPodPrefix(line), &f)
		return f.at, false
	}
	return f.at, fm == fmtKlog
}
