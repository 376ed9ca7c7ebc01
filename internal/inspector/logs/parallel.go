package logs

import (
	"context"
	"io"
	"runtime"
	"sync"
	"time"
)

// A saved log is parsed in parallel and applied in order. One goroutine
// splits it into chunks of lines; Options.Workers goroutines parse the
// chunks (the prefilter, the format, the dialect: all of a line's cost
// but the store's); the caller's goroutine applies each chunk's results to
// the store in the log's order, so every key sees its lines in the order
// they were written and the answers are those of a reading line by line
// (TestParallelReadMatchesSequential). Memory is a few chunks in flight,
// whatever the log's length: the store's own bound is by keys.
//
// One thing a line's parse takes from the lines before it: a klog header
// has no year, and takes it from the log's dated lines so far (times.go).
// A worker parses it with the reading clock's year; the applier, which
// knows the lines before, parses such a line again with the log's.

// chunkLines and chunkBytes bound a chunk: big enough that handing it over
// costs nothing beside parsing it, small enough that few are in flight and
// that a chunk's lines and records (some 400 and 232 bytes a line) are still in
// the cache when the applier reads what a worker wrote. Read in turn in
// one process, eight times each, BenchmarkRead1M's log took a median of
// 663 ms of CPU time at 1 MB and 4096 lines, 589 at 256 KB and 1024 and
// 531 at 128 KB and 512 (BenchmarkRead1MMix's: 388, 374, 316); in another
// such run, 565 at 128 KB, 612 at 64 KB and 629 at 32 KB, where the
// handing over shows.
const (
	chunkLines = 512
	chunkBytes = 128 << 10
)

// chunk is a run of lines of the log and what the workers made of them.
type chunk struct {
	buf  []byte
	ends []int // line i is buf[ends[i-1]:ends[i]]
	nums []int // line i's number (eachLine's n)
	res  []lineResult
	// recs are the records of res, apart (most lines of a log are no
	// record), each its first fields alone, heldFields' 232 bytes, when it
	// sets no other (heldrecord.go); wholes are those that do, whole. A
	// worker writes a record and the applier reads it back from another
	// core's cache: whole, its 496 bytes were twice the lines' own.
	recs   []heldFields
	wholes []Record
	done   chan struct{}
}

// lineResult is what a worker made of one line.
type lineResult struct {
	at    time.Time // its kubelet timestamp
	skip  bool      // not after the resumed stream's last line
	out   outcome
	hints lineHints
	rec   int32 // its record is recs[rec], or wholes[rec]; -1 for none
	whole bool  // its record is wholes[rec]
}

func (c *chunk) line(i int) []byte {
	from := 0
	if i > 0 {
		from = c.ends[i-1]
	}
	return c.buf[from:c.ends[i]]
}

// workers is how many goroutines parse a read: Options.Workers, 1 for a
// live log (its lines are applied as they come, not a chunk at a time) or
// one read for --explain-lines (which reads every line, in order).
func (s *Store) workers() int {
	if s.opts.Live || s.opts.ExplainLines != nil {
		return 1
	}
	if s.opts.Workers > 0 {
		return s.opts.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// readParallel is read on w workers.
func (s *Store) readParallel(ctx context.Context, r io.Reader, after time.Time, w int) (lines int, last time.Time, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan *chunk, w)
	order := make(chan *chunk, 2*w)
	free := make(chan *chunk, 3*w+1)
	var wg sync.WaitGroup
	// w-1 workers, and the applier parses too while the chunk it is to
	// apply next is not parsed yet: on a busy machine a goroutine that
	// sleeps until another wakes it loses its core for a while.
	for range w - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := newInterner()
			for c := range work {
				s.parseChunk(c, after, in)
				close(c.done)
			}
		}()
	}
	type result struct {
		lines int
		err   error
	}
	split := make(chan result, 1)
	go func() {
		defer close(order)
		defer close(work)
		c := newChunk(free)
		send := func() bool {
			if len(c.ends) == 0 {
				return true
			}
			select {
			case order <- c:
			case <-ctx.Done():
				return false
			}
			work <- c
			c = newChunk(free)
			return true
		}
		n, err := s.eachLine(ctx, r, chunkLines, func(line []byte, n int) {
			c.buf = append(c.buf, line...)
			c.ends = append(c.ends, len(c.buf))
			c.nums = append(c.nums, n)
			if len(c.ends) == chunkLines || len(c.buf) >= chunkBytes {
				send()
			}
		})
		send()
		split <- result{n, err}
	}()
	last = after
	// none is the record of a line that has none (skipped): apply
	// changes only records, so it stays the zero Record. rec is where a
	// record kept as its first fields is made whole again (zero after
	// them), in the applier's cache.
	var none, rec Record
	help := (<-chan *chunk)(work)
	in := newInterner()
	firstChunk := true
	s.tally.on = true
	defer func() { s.flushTally(); s.tally.on = false }()
	for c := range order {
	wait:
		for {
			select {
			case <-c.done:
				break wait
			case o, ok := <-help:
				if !ok {
					help = nil // all parsed or being parsed: wait
					continue
				}
				s.parseChunk(o, after, in)
				close(o.done)
			}
		}
		now := s.opts.Clock.Now()
		for i := range c.res {
			lr := &c.res[i]
			if lr.at.After(last) {
				last = lr.at
			}
			if lr.skip {
				continue
			}
			s.noteDated(lr.at)
			ref, fromLog := s.yearRef(now)
			r := &none
			switch {
			case lr.whole:
				r = &c.wholes[lr.rec] // applied in place: not copied
			case lr.rec >= 0:
				r = &rec
				*r = Record{}
				*first(r) = c.recs[lr.rec]
			}
			if r.Yearless {
				// Dated by the log's lines before it, which the worker did
				// not know.
				lr.out = parseInto(c.line(i), parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers, intern: in}, r)
				lr.hints = hintsOf(c.line(i), lr.out)
			}
			s.apply(c.line(i), c.nums[i], r, lr.out, now, ref, fromLog, lr.hints)
		}
		s.flushTally()
		s.noteEnds(c, firstChunk, now, in) // the log's end: logend.go
		firstChunk = false
		select {
		case free <- c:
		default:
		}
	}
	wg.Wait()
	res := <-split
	return res.lines, last, res.err
}

// newChunk is a chunk from free, emptied, or a new one.
func newChunk(free chan *chunk) *chunk {
	select {
	case c := <-free:
		// Its records are not cleared: each is overwritten whole by the
		// next record put in its place (chunk.put), and what they hold
		// until then is a few chunks' strings, garbage or the store's.
		// Clearing them was a pass of 2 MB a chunk.
		c.buf, c.ends, c.nums, c.res, c.recs, c.wholes = c.buf[:0], c.ends[:0], c.nums[:0], c.res[:0], c.recs[:0], c.wholes[:0]
		c.done = make(chan struct{})
		return c
	default:
		return &chunk{buf: make([]byte, 0, chunkBytes+8<<10), res: make([]lineResult, 0, chunkLines), done: make(chan struct{})}
	}
}

// parseChunk parses each line of c as add does, with the reading clock as
// the year reference (see readParallel).
func (s *Store) parseChunk(c *chunk, after time.Time, in *interner) {
	now := s.opts.Clock.Now()
	ref := parseRef{at: now, dialects: s.opts.Dialects, markers: s.markers, intern: in}
	if cap(c.recs) < len(c.ends) {
		// Room for a record a line at once: grown by append, a chunk's
		// records were copied some ten times over, as large again in
		// garbage.
		c.recs = make([]heldFields, 0, len(c.ends))
	}
	// A line's record is parsed here, in this goroutine's cache, then
	// put in the chunk (c.put).
	r := &in.rec
	for i := range c.ends {
		line := c.line(i)
		lr := lineResult{rec: -1}
		lr.at, lr.skip = s.lineTime(line, after, now)
		if !lr.skip {
			memo := false
			switch {
			case in.memo().read(trimEOL(line), &ref, r):
				lr.out = outRecord // a line read before but for its time (linememo.go)
				memo = true
			case !in.noMemo && in.skipped.skipped(line, &ref, &lr.hints):
				// A line skipped before but for a few bytes (skipmemo.go):
				// its hints are found too.
				c.res = append(c.res, lr)
				continue
			case ref.skips(line):
				lr.out = outSkipped // no record: a skipped line's is the zero Record
			default:
				lr.out = parseAll(line, ref, r)
			}
			switch {
			case memo:
				lr.rec, lr.whole = c.putAs(r, in.memo().other)
			case lr.out != outSkipped:
				lr.rec, lr.whole = c.put(r)
			}
			lr.hints = hintsOf(line, lr.out)
			if lr.out == outSkipped && !in.noMemo {
				in.skipped.keep(line, lr.hints)
			}
		}
		c.res = append(c.res, lr)
	}
}

// put keeps r, a line's record, in c: its first fields alone when it sets
// no other (heldrecord.go). It says where.
func (c *chunk) put(r *Record) (int32, bool) { return c.putAs(r, setsOther(r)) }

// putAs is put of r, other saying whether it sets a field after its
// heldFields (setsOther): the line memo knows it without comparing them.
func (c *chunk) putAs(r *Record, other bool) (int32, bool) {
	if other {
		c.wholes = append(c.wholes, *r)
		return int32(len(c.wholes) - 1), true
	}
	c.recs = append(c.recs, *first(r))
	return int32(len(c.recs) - 1), false
}
