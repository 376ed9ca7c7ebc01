package logs

import (
	"bytes"
	"time"
)

// interner keeps one string for each value of the fields that recur line
// after line — the message, the controller, its group and kind, the
// namespace, the name, the object reference — so that a log of a
// million lines allocates them once, not once a line: most of a read's
// allocations, and so of its garbage collection. One per reading goroutine
// (not safe for concurrent use).
//
// Values are looked up by the bytes of the line as written (escaped), so a
// value that has to be unescaped (an error quoting a name: `\"widget-api\"`)
// is unescaped once too, not on every line. Memory is bounded: past
// maxInternSize bytes the map is emptied and fills again with what recurs
// from then on (a long log moves on to other keys; a bound that stopped
// interning would keep the first keys forever and intern no new ones).
type interner struct {
	m    map[string]interned
	size int // the bytes m holds, roughly
	// recent holds the last value met at each of a few slots, by a hash of
	// a value's length and two of its bytes: the controller, its kind, the
	// namespace, the message of the line before are met again line after
	// line, and comparing a few bytes is cheaper than hashing them all.
	recent [256]interned
	// ts and at are the last timestamp read and its time: a busy log
	// writes many lines in one second (or millisecond), and parsing a
	// time is a tenth of a line's parse.
	ts []byte
	at time.Time
	// lastID is the last reconcileID read; ids are where the line memo
	// makes the new ones (reconcileID).
	lastID string
	ids    shortStrings
	// lines are the lines read that the next may repeat (linememo.go);
	// noMemo turns them off (BenchmarkLineMemo's side by side).
	lines  lineMemo
	noMemo bool
	// skipped are the lines the prefilter skipped last that the next may
	// repeat (skipmemo.go); off with the line memo.
	skipped skippedLines
	// rec is where a parallel read's worker parses a line's record before
	// it puts it in the chunk (parseChunk).
	rec Record
}

// maxInternSize and maxInternBytes bound an interner: the bytes it holds
// (each value written and read, and its share of the map), and a value.
const (
	maxInternSize  = 2 << 20
	maxInternBytes = 256
)

// memo is the reading goroutine's lineMemo; nil for none.
func (in *interner) memo() *lineMemo {
	if in == nil || in.noMemo {
		return nil
	}
	return &in.lines
}

// interned is a value as written (key) and its text (val).
type interned struct{ key, val string }

func newInterner() *interner { return &interner{m: map[string]interned{}} }

// jsonString is the value raw of field key as a string (jsonString),
// interned when key is one whose values recur.
func (in *interner) jsonString(key fieldKey, raw []byte) string {
	if in == nil || len(raw) < 2 || raw[0] != '"' {
		return jsonString(raw)
	}
	if key.recurring() {
		return in.of(raw, jsonString)
	}
	if key == fkReconcileID {
		// Unique to a reconcile, and written on each of its lines (its
		// start, then its end): kept for the next line alone, not in the
		// map, which it would fill.
		if body := raw[1 : len(raw)-1]; string(body) == in.lastID && bytes.IndexByte(body, '\\') < 0 {
			return in.lastID
		}
		in.lastID = jsonString(raw)
		return in.lastID
	}
	return jsonString(raw)
}

// reconcileID is the reconcileID whose JSON string's text is text, plain
// text (plainText: no escape to read), for a record of the line memo,
// which names a dialect's line, not the generic reader's: the last one
// when it is the same, else made in ids (shortstrings.go), not a string
// of its own.
func (in *interner) reconcileID(text []byte) string {
	if string(text) != in.lastID {
		in.lastID = shortOf(&in.ids, text)
	}
	return in.lastID
}

// of is text(raw), kept under raw's bytes for the next line that holds the
// same ones. A value's text depends on its bytes alone (a JSON string's
// unescaped, an object's reference), whichever field it is in.
func (in *interner) of(raw []byte, text func([]byte) string) string {
	if in == nil || len(raw) > maxInternBytes || len(raw) == 0 {
		return text(raw)
	}
	r := &in.recent[(len(raw)*7+int(raw[len(raw)/2])*3+int(raw[len(raw)-1]))&255]
	if r.key == string(raw) { // compared in place: no copy
		return r.val
	}
	e, ok := in.m[string(raw)] // a lookup by bytes: no copy
	if !ok {
		e = interned{string(raw), text(raw)}
		if in.size += len(e.key) + len(e.val) + 64; in.size > maxInternSize {
			clear(in.m)
			in.size = len(e.key) + len(e.val) + 64
		}
		in.m[e.key] = e
	}
	*r = e
	return e.val
}

// time is parse(raw) for a timestamp's raw JSON value, the last one's time
// when it is the same bytes.
func (in *interner) time(raw []byte, parse func([]byte) time.Time) time.Time {
	if in == nil {
		return parse(raw)
	}
	if string(raw) == string(in.ts) && in.ts != nil {
		return in.at
	}
	in.ts, in.at = append(in.ts[:0], raw...), parse(raw)
	return in.at
}
