package logs

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Some handlers say an attempt failed on two lines, the key on the second:
// knative.dev/pkg's controller of 2019–2020 (processNextWorkItem) calls
// handleErr, which logs "Reconcile error" with the error on the
// controller's own logger — no key — and AddRateLimited(key), and only
// then logs "Reconcile failed. Time taken: …" at info level on a logger
// that carries knative.dev/key (batch13/1304, knative/serving#7340). The
// error line is the failure; the line after it names its key. A dialect's
// failure line that names no key takes the key of the line just after it
// when all of these hold: that line is the very next one applied (two
// workers' attempts interleave: no key is better than a false one); it
// names exactly one key and says the attempt failed ("failed"), with no
// error of its own (one with its own error is a failure or inner cause of
// its own, not the end of this one); both come from one named logger; and
// the second is at most attemptWindow after the first (both times known).
// The second line is then the attempt's key line, not counted itself.
// keybefore.go is the mirror: a key on the line just before.

// afterKeyed reads again the line just before line — a dialect's failure
// that named no key, kept by noteLineBefore — with the key line names,
// when line ends that failure's attempt (above); ok is false otherwise.
// The record returned is that earlier line's, read from line before; n
// is line's number in the log.
func (s *Store) afterKeyed(line []byte, n int, ref parseRef) (r Record, before int, ok bool) {
	b := &s.before
	if !b.unreadable || len(b.raw) == 0 || b.applied != s.linesApplied-1 {
		return Record{}, 0, false
	}
	lf := beforeFields(line, ref)
	key, _ := lf.oneKey()
	if key == "" || lf.err != "" || lf.logger == "" || !strings.Contains(strings.ToLower(lf.msg), "failed") {
		return Record{}, 0, false
	}
	bf := beforeFields(b.raw, ref)
	if k, _ := bf.oneKey(); k != "" || bf.err == "" || bf.logger != lf.logger || !within(bf.at, lf.at) {
		return Record{}, 0, false
	}
	ref.keyBefore, ref.kindBefore = key, ""
	if out := parseAll(b.raw, ref, &r); out != outRecord || r.What != ErrorLine || r.Key() != key {
		return Record{}, 0, false
	}
	r.Evidence = "its key " + strconv.Quote(key) + " named by line " + strconv.Itoa(n) +
		" just after it, the handler's own line ending the same attempt (" + strconv.Quote(lf.msg) + "): the same logger, within a second"
	before = b.line
	b.raw, b.unreadable = b.raw[:0], false // taken: one attempt, one failure
	s.diag.retract(before)                 // it was read after all
	s.forgetUnread(before)
	if s.opts.ExplainLines != nil {
		s.mu.Lock()
		if s.keyedAfter == nil {
			s.keyedAfter = map[int]bool{}
		}
		s.keyedAfter[before] = true
		s.mu.Unlock()
	}
	return r, before, true
}

// forgetUnread drops line from the lines remembered as a later failure's
// inner cause (innercand.go): its failure was read.
func (s *Store) forgetUnread(line int) {
	s.unread = slices.DeleteFunc(s.unread, func(u unreadLine) bool { return u.line == line })
}

// notReadMeaning is what --explain-lines says of a line that looked like
// a failure and was not read.
const notReadMeaning = "looked like a failure, not read"

// applyKeyedAfter applies r, the failure of the log's line before read
// with the key of line n just after it (afterKeyed), as a record of line
// before; line n is its attempt's key line, counted no more.
func (s *Store) applyKeyedAfter(r Record, before, n int, now time.Time, fromLog bool) {
	var d readMarks
	switch {
	case !plausible(r.At, now):
		r.At, d.implausible = time.Time{}, true
	case r.Yearless:
		d.yearAssumed = !fromLog
	default:
		s.noteDated(r.At)
	}
	s.diag.record(r.Dialect, d)
	if s.holding() {
		s.hold(&r, before, d.implausible)
	} else {
		s.applyRecord(r, before, d.implausible)
	}
	if s.opts.ExplainLines != nil {
		s.explain(LineReading{Line: n, Dialect: r.Dialect, Controller: r.Controller, Key: r.Key(), At: r.At,
			Meaning: meaning(Record{What: KeyLine}),
			Why:     "its words say the attempt failed, naming one key, just after line " + strconv.Itoa(before) + "'s failure, which names none: the same logger, within a second"})
	}
}
