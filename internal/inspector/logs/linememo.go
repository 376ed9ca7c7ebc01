package logs

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// A busy controller's log repeats itself: a key that keeps failing gets the
// same "Reconciling" and "Reconciler error" lines, retry after retry, but
// for their time and reconcileID. lineMemo keeps the last records a reading
// goroutine read from whole JSON lines, with where their time and
// reconcileID values are; a line that is byte for byte one of them outside
// those two values is that record, with its own time (and the limiter of
// that time) and its own reconcileID, and is neither searched for markers
// nor decoded again (that was half of BenchmarkRead1M's time).
//
// Why that is the record parse makes of the line: the two values are
// tokens (a string's text with no quote, backslash or control byte, or a
// number: nothing a JSON scan or unescaping reads, span.token), so both
// lines hold the same members, every other value byte for byte. A line
// kept opens with "{" and was read whole, as it is: no collector's words
// or time were taken off it, and those are looked for at a line's start,
// before any value. It holds a marker outside the two values (learn), so
// the other holds it too and the prefilter would pass it. A named
// dialect's record reads the time into Record.At, into the rules of its
// limiter dated "before" (asked again here) and into a requeue-after
// field's end (a line with one is not kept); the reconcileID into
// Record.ReconcileID alone. The generic reader's records, which keep the
// line and read its words, are not kept, nor a queue's or a forget's
// (their slices would be shared). TestLineMemoIsParse checks it on the
// JSON lines of the fixtures, their times and reconcileIDs changed at
// random. A line may differ in its key's name too: memoname.go.

// memoSets and memoWays size a lineMemo: lines are put in a set by their
// length (a line repeated is as long), and each set keeps its last
// memoWays lines of that length (a few keys' lines interleave).
const (
	memoSets = 8
	memoWays = 4
	// memoMaxLine bounds a line kept, so that a memo holds at most some
	// 150 KB: a long error line is seldom repeated byte for byte.
	memoMaxLine = 4 << 10
)

// lineMemo is a reading goroutine's (interner.lines).
type lineMemo struct {
	sets [memoSets]struct {
		way  [memoWays]memoLine
		next int // the way the next line learned takes
	}
	// names are the last names lines read gave their records, next the
	// one the next new name takes (nameOf).
	names    [memoWays]string
	nextName int
	// other says whether the record read last sets a field after its
	// heldFields (setsOther), known without comparing its 264 bytes: its
	// line's rest, or the limiter read sets.
	other bool
}

// memoLine is a line read, and the record it was.
type memoLine struct {
	line []byte
	// at and id are where its time and reconcileID are; to zero for none.
	at, id span
	// names are where its key's name is (memoName), names[:nnames];
	// cuts are at, id and names in the line's order, cuts[:ncuts]: what
	// sameBut does not compare byte for byte.
	names         [memoNames]span
	cuts          [memoNames + 2]span
	nnames, ncuts int
	// name is the name of the last line read as this one (its text: a
	// plain name is its bytes): a key's lines repeat, and a repeat of its
	// name is not looked up again.
	name string
	// by is the dialect that read it, whose limiter is asked for the time
	// of each line that is this one; unless no rule of it is dated
	// (limitersDated): then the limiter is the same at any time, lim and
	// limOf, asked once.
	by    *Dialect
	dated bool
	lim   Limiter
	limOf string
	r     Record
	// rest is setsOther of r but for its limiter, which read sets: the
	// one field after heldFields a line read as this one may change.
	rest bool
}

// span is a token's place in its line, line[from:to]: a value, or a
// string's text between its quotes (quoted).
type span struct {
	from, to int
	quoted   bool
}

// token says whether line[s.from:s.to] is a token: of a string, text
// (plainText); else memoToken's bytes.
func (s span) token(line []byte) bool {
	if s.quoted {
		return plainText(line[s.from:s.to])
	}
	return memoToken(line[s.from:s.to])
}

// raw is the value at s in line, quotes included.
func (s span) raw(line []byte) []byte {
	if s.quoted {
		return line[s.from-1 : s.to+1]
	}
	return line[s.from:s.to]
}

// read puts in r the record of body, a line its end of line off, when it
// is a line learned but for its time and reconcileID, and says whether it
// was.
func (m *lineMemo) read(body []byte, ref *parseRef, r *Record) bool {
	if m == nil || len(body) == 0 || body[0] != '{' || len(body) > memoMaxLine {
		return false
	}
	set := &m.sets[len(body)%memoSets]
	for i := range set.way {
		l := &set.way[i]
		if len(l.line) != len(body) || !l.sameBut(body) {
			continue
		}
		*r = l.r
		if l.at.to > 0 {
			r.At = ref.intern.time(l.at.raw(body), timeValue)
			r.Limiter, r.LimiterOf = l.lim, l.limOf
			if l.dated {
				r.Limiter, r.LimiterOf = limiterOf(l.by, r.Controller, r.At, ref.dialects)
			}
		}
		switch {
		case l.id.quoted:
			r.ReconcileID = ref.intern.reconcileID(body[l.id.from:l.id.to])
		case l.id.to > 0:
			r.ReconcileID = ref.intern.jsonString(fkReconcileID, l.id.raw(body))
		}
		if n := l.names[0]; l.nnames > 0 {
			if name := body[n.from:n.to]; string(name) != l.name {
				l.name = m.nameOf(name)
			}
			r.Name = l.name
		}
		m.other = l.rest || r.Limiter != (Limiter{}) || r.LimiterOf != ""
		return true
	}
	return false
}

// nameOf is the string of name, a plain name (its own text): one of the
// last names read when it is one (a key's lines come together, its start
// then its end, and a few keys' lines interleave), else made of its bytes:
// a log of thousands of keys meets a new one cold in the interner's map,
// where a lookup cost several times the string's making.
func (m *lineMemo) nameOf(name []byte) string {
	for _, n := range m.names {
		if n == string(name) {
			return n
		}
	}
	n := string(name)
	m.names[m.nextName] = n
	m.nextName = (m.nextName + 1) % len(m.names)
	return n
}

// sameBut says whether body, as long as l's line, is the same line but
// for tokens of the same length in place of its time and reconcileID, and
// one plain name in each place of its name (memoname.go).
func (l *memoLine) sameBut(body []byte) bool {
	// In the line's order; the tokens last: most lines that are not l's
	// differ in the rest, and are told by it alone.
	from := 0
	for _, c := range l.cuts[:l.ncuts] {
		if !bytes.Equal(body[from:c.from], l.line[from:c.from]) {
			return false
		}
		from = c.to
	}
	return bytes.Equal(body[from:], l.line[from:]) && l.at.token(body) && l.id.token(body) && l.sameName(body)
}

// sameName says whether body's names, where l's are, are one name
// (memoName).
func (l *memoLine) sameName(body []byte) bool {
	if l.nnames == 0 {
		return true
	}
	n := l.names[0]
	name := body[n.from:n.to]
	if !memoName(name) {
		return false
	}
	for _, o := range l.names[1:l.nnames] {
		if !bytes.Equal(body[o.from:o.to], name) {
			return false
		}
	}
	return true
}

// learn keeps body, a JSON line alone (its end of line off) that f read
// and that is record r, when a line the same but for its time and
// reconcileID is that record with theirs (see above); ref is what it was
// read with.
func (m *lineMemo) learn(body []byte, f *fields, r *Record, ref *parseRef) {
	if m == nil || len(body) > memoMaxLine || len(body) == 0 || body[0] != '{' || !f.whole ||
		f.readBy == nil || r.Dialect == genericName || r.Candidate || r.What == QueueLine || r.What == ForgetLine ||
		f.requeueAt != "" || f.eventKey != "" || f.keyBefore != "" || f.times > 1 || f.ids > 1 {
		// A key from another line (eventkey.go, keybefore.go) is that
		// line's, not this one's: a repeat of it need not have it.
		return
	}
	var at, id span
	var ok bool
	if at, ok = spanOf(body, f.timeRaw); !ok {
		return
	}
	if id, ok = spanOf(body, f.idRaw); !ok {
		return
	}
	set := &m.sets[len(body)%memoSets]
	l := &set.way[set.next]
	l.nnames = 0
	if f.keyFromName && f.names == 1 {
		l.nnames = nameSpans(body, f.nameRaw, &l.names)
	}
	l.ncuts = 0
	for i := -2; i < l.nnames; i++ {
		c := at
		switch {
		case i == -1:
			c = id
		case i >= 0:
			c = l.names[i]
		}
		if c.to > 0 {
			l.cuts[l.ncuts] = c
			l.ncuts++
		}
	}
	slices.SortFunc(l.cuts[:l.ncuts], func(a, b span) int { return a.from - b.from })
	l.line = append(l.line[:0], body...)
	// Its marker outside the values: the line with them blanked out is
	// not skipped.
	for _, c := range l.cuts[:l.ncuts] {
		clear(l.line[c.from:c.to])
	}
	if ref.skips(l.line) {
		l.line = l.line[:0]
		return
	}
	copy(l.line, body)
	set.next = (set.next + 1) % memoWays
	l.at, l.id, l.by, l.r, l.name = at, id, f.readBy, *r, r.Name
	l.dated = limitersDated(f.readBy, ref.dialects)
	l.lim, l.limOf = limiterOf(f.readBy, r.Controller, r.At, ref.dialects)
	rest := *r
	rest.Limiter, rest.LimiterOf = Limiter{}, ""
	l.rest = setsOther(&rest)
}

// sameBytes says whether a and b are the same bytes of memory, not only
// equal ones.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// spanOf is where raw, a value of body (or nil), is in body, when it is
// a token or a string of one; ok is false for any other value.
func spanOf(body, raw []byte) (span, bool) {
	if raw == nil {
		return span{}, true
	}
	from := cap(body) - cap(raw)
	if len(raw) == 0 || from <= 0 || from+len(raw) > len(body) || &body[from] != &raw[0] {
		return span{}, false
	}
	s := span{from: from, to: from + len(raw)}
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		s = span{from: from + 1, to: from + n - 1, quoted: true}
	}
	if s.to == s.from || !s.token(body) {
		// An empty token is no span: the scan's "none".
		return span{}, false
	}
	return s, true
}

// plainText says whether v, a JSON string's text, holds no quote, no
// backslash and no control byte: text that ends no string, that unescaping
// keeps as it is, and that no reading of a line's start or end (an ANSI
// colour, an end of line) looks for. It tests eight bytes at a time (it
// runs on every line the memo reads): a byte of x is zero where v's is a
// quote (or of y, a backslash), and a byte below 0x20 borrows; none leaves
// the top bits clear (and a borrow only runs up from a byte that is one).
func plainText(v []byte) bool {
	if len(v) >= 8 {
		// The last eight bytes as one word too, over the words before
		// (a time's 20 bytes, a UUID's 36: their last 4 a byte at a time
		// cost more than the words).
		for i := 0; i+8 < len(v); i += 8 {
			if !plainWord(binary.LittleEndian.Uint64(v[i:])) {
				return false
			}
		}
		return plainWord(binary.LittleEndian.Uint64(v[len(v)-8:]))
	}
	for _, c := range v {
		if c == '"' || c == '\\' || c < 0x20 {
			return false
		}
	}
	return true
}

// plainWord is plainText of the eight bytes of w.
func plainWord(w uint64) bool {
	x, y := w^swarQuotes, w^swarBackslashes
	return ((x-swarLo)&^x|(y-swarLo)&^y|(w-swarControl)&^w)&swarHi == 0
}

// swarBackslashes has each byte a backslash, swarControl each 0x20 (the
// first byte that is no control byte).
const (
	swarBackslashes = '\\' * swarLo
	swarControl     = 0x20 * swarLo
)

// memoToken says whether v's bytes are all letters, digits or ".:+-": a
// number's, or an epoch time's, and none of which a JSON scan stops at
// after a value that is no string. Empty is one (a span of none).
func memoToken(v []byte) bool {
	for _, c := range v {
		if !tokenBytes[c] {
			return false
		}
	}
	return true
}

// tokenBytes are memoToken's bytes: a table, as a log of epoch times has
// some twenty tested on every line the memo reads.
var tokenBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == ':' || c == '+' || c == '-'
	}
	return t
}()
