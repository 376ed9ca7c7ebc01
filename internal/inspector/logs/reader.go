package logs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"time"
)

// maxLineBytes bounds one log line; the rest of a longer line (a huge stack
// trace) is skipped, and what was kept is still parsed.
const maxLineBytes = 1 << 20

// Read parses every line of r into the store until r ends or ctx is done.
// It returns the number of lines read and the newest kubelet timestamp seen
// (zero when the lines carry none), from which a stream resumes.
func (s *Store) Read(ctx context.Context, r io.Reader) (lines int, last time.Time, err error) {
	s.setReadingHeld(s.holding())
	lines, last, err = s.read(ctx, r, time.Time{})
	s.finishCandidates()
	s.flushHeld()
	s.setReadingHeld(false)
	s.flushPending()
	return lines, last, err
}

// setReadingHeld says whether a read holds its records for time order
// (order.go): --explain-lines' readings wait with them, to be given in the
// log's order of lines.
func (s *Store) setReadingHeld(on bool) {
	s.mu.Lock()
	s.readingHeld = on
	s.mu.Unlock()
}

// flushPending applies the bare failures still waiting (attempt.go): the
// log has ended, or a reader asks.
func (s *Store) flushPending() {
	s.mu.Lock()
	s.flushPendingLocked(time.Time{})
	s.innerHoldTo = 0 // no line to come can take an inner cause
	out := s.explainReadyLocked()
	s.mu.Unlock()
	for _, lr := range out {
		s.opts.ExplainLines(lr)
	}
}

// read is Read, skipping lines whose kubelet timestamp is not after after:
// a resumed stream starts at a whole second, so it repeats a few lines.
// A saved log is parsed on Options.Workers goroutines (readParallel); a
// live one, or one read for --explain-lines, line by line here.
func (s *Store) read(ctx context.Context, r io.Reader, after time.Time) (lines int, last time.Time, err error) {
	if w := s.workers(); w > 1 {
		return s.readParallel(ctx, r, after, w)
	}
	last = after
	in := newInterner()
	tail := &tailKeeper{s: s, r: r} // the log's end: logend.go
	emit := func(line []byte, n int) {
		if at := s.add(line, n, after, in); at.After(last) {
			last = at
		}
		tail.keep(line)
	}
	lines, err = s.eachLine(ctx, tail, 1, emit)
	tail.resolve()
	return lines, last, err
}

// eachLine splits r into lines, joins klog's multi-line values (joiner),
// counts them, and calls emit with each logical line and its number (the
// store's count of lines when it ends: the number --explain-lines gives),
// until r ends or ctx is done. emit may not keep the line: its bytes are
// reused. The store's count (Stats.Lines) is brought up to date every
// publish lines, when the input has nothing more buffered, and at the
// end: a parallel read's applier writes beside it
// on every record, and a counter both goroutines write costs the splitter
// a cache miss a line (a tenth of its time in BenchmarkRead1M).
func (s *Store) eachLine(ctx context.Context, r io.Reader, publish int, emit func(line []byte, n int)) (lines int, err error) {
	var j joiner
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	base := int(s.lines.Load())
	out := func(line []byte) { emit(line, base+lines) }
	defer func() { s.lines.Store(int64(base + lines)) }()
	for {
		if lines%1024 == 0 && ctx.Err() != nil {
			return lines, ctx.Err()
		}
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long) < maxLineBytes {
				long = append(long, chunk[:min(len(chunk), maxLineBytes-len(long))]...)
			}
			continue
		}
		line := chunk
		if long != nil {
			line = append(long, chunk...)
			long = long[:0:0]
		}
		if len(line) > 0 {
			j.release(line, out)
			lines++
			// And before a read that may block: a pipe gone quiet, then
			// an interrupt, is told how far the read got.
			if lines%publish == 0 || br.Buffered() == 0 {
				s.lines.Store(int64(base + lines))
			}
			// The input buffered after line, without a read: a wrap's
			// evidence (widthwrap.go).
			j.ahead, _ = br.Peek(br.Buffered())
			j.feed(line, out)
		}
		if err != nil {
			j.flush(out)
			if err == io.EOF {
				return lines, nil
			}
			return lines, err
		}
	}
}

// trimEOL is line without the "\r" and "\n" at its end: bytes.TrimRight's
// answer, without building its set of two bytes at each of the two calls a
// line (a line is read in a few hundred nanoseconds).
func trimEOL(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == '\n' || line[n-1] == '\r') {
		n--
	}
	return line[:n]
}

// add parses one line, the log's line n, into the store, unless its
// kubelet timestamp is not after after, and returns that timestamp (zero
// when it has none, or an implausible one). Times are read as times.go
// says: none is invented. in is the reading goroutine's interner.
func (s *Store) add(line []byte, n int, after time.Time, in *interner) time.Time {
	now := s.opts.Clock.Now()
	at, skip := s.lineTime(line, after, now)
	if skip {
		return at
	}
	s.noteDated(at)
	ref, fromLog := s.yearRef(now)
	var r Record
	out := parseInto(line, parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers, intern: in}, &r)
	s.apply(line, n, &r, out, now, ref, fromLog, hintsOf(line, out))
	return at
}

// lineTime is a line's kubelet timestamp (zero when it has none, or an
// implausible one), and whether the line is skipped: its timestamp is not
// after after.
func (s *Store) lineTime(line []byte, after, now time.Time) (time.Time, bool) {
	at, _ := kubeletTime(trimPodPrefix(line))
	if !plausible(at, now) {
		at = time.Time{}
	}
	return at, !after.IsZero() && !at.IsZero() && !at.After(after)
}

// apply applies what parse made of a line, the log's line n, in the log's
// order: the record, or the line counted as unreadable; ref and fromLog
// are the year reference it was parsed with; h are hintsOf's answers.
// r is the parse's record, changed as applied (a pointer: a Record is
// some 500 bytes, and a million lines are applied).
func (s *Store) apply(line []byte, n int, r *Record, out outcome, now, ref time.Time, fromLog bool, h lineHints) {
	s.linesApplied++
	if out != outRecord && out != outSkipped && s.before.unreadable && s.before.applied == s.linesApplied-1 {
		// The key line of the keyless failure just before it (keyafter.go).
		pr := parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers}
		if kr, before, ok := s.afterKeyed(line, n, pr); ok {
			s.applyKeyedAfter(kr, before, n, now, fromLog)
			return
		}
	}
	if h.logger {
		// A handler's failure naming no key, its key on the sync's lines
		// just before it (handlerlogger.go).
		if out == outSkipped || out == outOther {
			if hr, ok := s.handlerKeyed(line, parseRef{at: ref, fromLog: fromLog}); ok {
				r, out = &hr, outRecord
			} else if hr.NotRead != "" {
				r, out = &hr, outUnreadable
			}
		}
		s.noteLogged(line)
	}
	if out == outOther || out == outUnreadable {
		// A failure naming no key, perhaps named by the event line just
		// before it (eventkey.go).
		if er, eout, ok := s.eventKeyed(line, s.linesApplied, ref, fromLog); ok {
			r, out = &er, eout
		} else if out == outUnreadable || r.NotRead != "" {
			// Or by the line just before it (keybefore.go).
			pr := parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers}
			if br, bout, ok := s.beforeKeyed(line, out, pr); ok {
				r, out = &br, bout
			} else {
				s.noteLineBefore(line, n, out)
			}
		}
	}
	if out == outRecord && r.What == ErrorLine && r.ViaHandleError {
		// Its handler's give-up, said on the line just before (giveup.go).
		s.giveUpBefore(r, parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers})
	}
	if out == outRecord && r.What == ErrorLine && r.Error == noErrorStated {
		// Its error, on the keyless line just before (errorbefore.go).
		s.errorBefore(r, parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers})
	}
	if out == outCandidate && r.Key() != "" && r.Error != "" {
		// A reconciler's own line that the generic reader could not yet
		// call a failure may name the key of the keyless failure line
		// after it (keybefore.go).
		s.noteLineBefore(line, n, out)
		s.noteSameError(r, n) // its key's last error again (sameerror.go)
	}
	if out == outRecord && r.What == ErrorLine {
		s.noteKeyError(r, n)
	}
	if out != outRecord && out != outCandidate && h.event {
		s.noteEvent(line, s.linesApplied)
	}
	if h.retry && out == outOther {
		// A retry announced for a candidate just before (announced.go).
		s.noteAnnouncedRetry(line, n, parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers})
	}
	switch out {
	case outRecord, outCandidate:
		var d readMarks
		if now != s.applyNow || s.applyLimit.IsZero() {
			s.applyNow, s.applyLimit = now, now.Add(futureSlack)
		}
		if !plausibleBy(r.At, s.applyLimit) {
			r.At, d.implausible = time.Time{}, true
		}
		var example []byte
		if out == outCandidate {
			example = unreadableExample(line)
		}
		raw, line := line, n
		switch {
		case r.At.IsZero():
			d.untimed = true
		case r.Yearless:
			d.yearAssumed = !fromLog
		default:
			s.noteDated(r.At)
		}
		if out == outCandidate {
			// The generic reader's: its template's evidence decides
			// (evidence.go).
			s.candidate(*r, line, d, example)
			return
		}
		if r.What != CauseLine {
			// A cause is no recognised line until a warning takes it.
			s.recordRead(r.Dialect, d)
		}
		if r.What == ErrorLine {
			s.noteInnerCause(r, raw, line)
		}
		if r.Finished {
			s.noteReplicaHint(raw) // "Finished syncing" kind= names its controller
		}
		if s.holding() {
			s.hold(r, line, d.implausible)
		} else {
			s.applyRecord(*r, line, d.implausible)
		}
	case outUnreadable:
		if h.replica {
			s.noteReplicaHint(line)
		}
		s.diag.failed(line, n)
		s.noteUnreadable(r, line, n)
		s.explainNotRead(*r, "holds a failure message of a dialect, but its controller or key could not be read, or it is cut short")
	case outOther:
		if h.replica {
			s.noteReplicaHint(line)
		}
		s.explainNotRead(*r, "")
	case outSkipped:
		if s.before.applied == s.linesApplied-1 && len(bytes.TrimSpace(line)) == 0 {
			s.before.applied++ // a paste's blank line between (keybefore.go)
		}
		if h.replica {
			s.noteReplicaHint(line)
		}
		if s.opts.ExplainLines != nil {
			var r Record
			parseAll(line, parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers}, &r)
			s.explainNotRead(r, "")
		}
	}
}

// lineHints are what a worker found in a line beside its parse, so that
// the one goroutine that applies lines in order does not search them
// again: by then a line's bytes are cold, in another core's cache (the
// event search of the applier's was a 40th of BenchmarkRead1M's time,
// all of it waiting for the line's head).
type lineHints struct {
	replica bool // replicaHint
	// event says the line's head names event.go (eventCaller): an event
	// line, perhaps (noteEvent); false for a record, which is none.
	event bool
	// logger says the line names a logger as klog does (logger="…"), a
	// line that is no record: a sync's line, perhaps, or its handler's
	// (handlerlogger.go).
	logger bool
	// retry says the line, parsed to no record, holds retryMarker: a
	// retry announced, perhaps (announced.go). A line the prefilter
	// skipped holds none: "etry" is one of the generic reader's markers.
	retry bool
}

// hintsOf are the hints of a line parse made out.
func hintsOf(line []byte, out outcome) lineHints {
	return lineHints{
		replica: replicaHint(line, out),
		event:   out != outRecord && out != outCandidate && eventCaller(line[:min(len(line), eventHead)]) >= 0,
		logger:  out != outRecord && out != outCandidate && bytes.Contains(line, loggerField),
		retry:   out == outOther && bytes.Contains(line, retryMarker),
	}
}

// replicaHint says whether a line parse made out of may be a hint of
// kube-controller-manager's replica_set.go (noteReplicaHint): a parallel
// read's workers ask, so that the one goroutine that applies lines in
// order does not search every line again.
func replicaHint(line []byte, out outcome) bool {
	if out == outRecord {
		return false
	}
	// Found by its underscore, a rare byte in a log line: bytes.Contains
	// starts each try at an "r", which is in every word.
	const before = len("replica")
	for i := 0; ; i++ {
		j := bytes.IndexByte(line[i:], '_')
		if j < 0 {
			return false
		}
		i += j
		if i >= before && bytes.HasPrefix(line[i-before:], replicaSetFile) {
			return true
		}
	}
}

// applyRecord adds a record read from the log's line line to the store,
// and gives --explain-lines its reading.
func (s *Store) applyRecord(r Record, line int, implausible bool) {
	r = s.add1(r, line)
	if r.NotRead != "" { // a failure naming no key, its attempt's not known (attemptkey.go)
		s.explainNotRead(r, "")
		return
	}
	if s.opts.ExplainLines != nil {
		lr := reading(r)
		lr.Line, lr.Implausible = line, implausible
		s.mu.Lock()
		if s.streakNote != "" {
			lr.Meaning += "; " + s.streakNote
			s.streakNote = ""
		}
		s.mu.Unlock()
		s.explain(lr)
	}
}

// explainNotRead gives --explain-lines a line not read that looked like a
// failure: why, else the fallback; nothing when neither says it did.
func (s *Store) explainNotRead(r Record, fallback string) {
	if s.opts.ExplainLines == nil {
		return
	}
	why := r.NotRead
	if why == "" {
		why = fallback
	}
	if why != "" {
		s.explain(LineReading{Line: int(s.lines.Load()), Meaning: notReadMeaning, Why: why, Tried: r.Tried})
	}
}
