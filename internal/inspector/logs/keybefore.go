package logs

import (
	"slices"
	"strconv"
)

// A logger that drops a reconcile's key/values leaves controller-runtime's
// "Reconciler error" with its error alone: MATRIXX's engine-operator writes
// `ERROR | engine-operator | Reconciler error | {"error": "Operation cannot
// be fulfilled on mtxengines… \"engine-s1e1\": …"}`, no controller, no
// request (batch11/1106). The reconciler's own line of the same attempt,
// just before it, logged the error it then returned, with the object:
// `ERROR | engine-operator | Failed to update MtxEngine Status |
// {"MtxEngine": "matrixx/engine-s1e1", "error": "<the same error>"}` —
// reconcileHandler logs exactly what Reconcile returned. A dialect's
// failure line that names no key takes that line's key when all of these
// hold: the line is the one just before it (two workers' attempts
// interleave: no key is better than a false one), it looked like a failure
// too, it names exactly one key, both lines carry the same error, word for
// word (an error equal by chance on the adjacent line of another key would
// have to come from the same logger at the same moment), and their loggers
// and times agree (the same logger or none; times within attemptWindow, or
// both unknown). The failure's controller, when it names none, is the kind
// that line's field names, in lower case: controller-runtime's builder
// names a controller after its For() kind so (kindlogger.go).

// lineBefore is the last line applied that looked like a failure and was
// not read, kept whole for the failure line that may follow it.
type lineBefore struct {
	applied    int // Store.linesApplied when it was applied
	line       int // the log's line (the last physical line of a joined one)
	unreadable bool
	// candidate says the generic reader held it as a candidate: when it
	// names the failure's key, it is withdrawn, so that one attempt
	// counts once, as the failure line's (withdraw).
	candidate bool
	raw       []byte
}

// noteLineBefore keeps line, the n-th of the log, which looked like a
// failure and was not read. Only the goroutine that applies lines in
// order calls it; such lines are few, and the copy reuses its buffer.
func (s *Store) noteLineBefore(line []byte, n int, out outcome) {
	s.before.applied, s.before.line, s.before.unreadable = s.linesApplied, n, out == outUnreadable
	s.before.candidate = out == outCandidate
	s.before.raw = append(s.before.raw[:0], line...)
}

// beforeKeyed reads again a line that looked like a failure and was not
// read (the last applied), with the key of the line just before it when
// that line is its attempt's (above); ok is false otherwise.
func (s *Store) beforeKeyed(line []byte, out outcome, ref parseRef) (Record, outcome, bool) {
	b := &s.before
	if out != outUnreadable || len(b.raw) == 0 || b.applied != s.linesApplied-1 {
		return Record{}, outOther, false
	}
	bf := beforeFields(b.raw, ref)
	key, kind := bf.oneKey()
	if key == "" || bf.err == "" {
		return Record{}, outOther, false
	}
	ref.keyBefore, ref.kindBefore = key, kind
	var r Record
	out = parseAll(line, ref, &r)
	if out != outRecord || r.Key() != key || r.Error != bf.err {
		return Record{}, outOther, false
	}
	if lf := beforeFields(line, ref); lf.logger != bf.logger {
		return Record{}, outOther, false
	}
	if !(r.At.IsZero() && bf.at.IsZero()) && !within(bf.at, r.At) {
		return Record{}, outOther, false
	}
	if b.candidate {
		s.mu.Lock()
		ok := s.cands.withdraw(key, b.line)
		s.mu.Unlock()
		if !ok {
			return Record{}, outOther, false // applied already: the attempt is counted
		}
	}
	if b.unreadable {
		s.diag.retract(b.line) // it said what the failure's attempt was
	}
	r.Evidence = "its key " + strconv.Quote(key) + " named by line " + strconv.Itoa(b.line) +
		" just before it, the reconciler's own line of the attempt: the same logger, and the same error, which Reconcile returned"
	return r, out, true
}

// oneKey is the one key a line's fields name, and the Kind of the field
// that names it when one does ("MtxEngine"); "" when they name none, or
// two.
func (f *fields) oneKey() (key, kind string) {
	if f.keyFields > 1 || f.kindFields > 1 {
		return "", ""
	}
	ns, name := f.anyKey()
	if name == "" && f.kindFields == 1 {
		ns, name = splitRef(f.kindRef)
	}
	if name == "" {
		return "", ""
	}
	key = keyOf(ns, name)
	if f.kindFields == 1 && f.kindRef == key {
		kind = f.kindField
	}
	if f.keyFields == 1 && f.keyField != key || f.kindFields == 1 && kind == "" {
		return "", "" // two fields, two keys
	}
	return key, kind
}

// beforeFields are a line's fields as its format reads them; a console
// line's message that no dialect knows is read by its shape
// ("… | Failed to update X | {…}": consoleFields).
func beforeFields(line []byte, ref parseRef) fields {
	line = collected(trimEOL(line))
	at, body, fm, _ := split(line)
	var f fields
	if !parseFields(body, fm, ref, &f) {
		f = fields{}
	}
	if !at.IsZero() {
		f.at = at
	}
	return f
}

// withdraw takes the candidate of key read from line out of those held
// for their template's evidence; false when none is held (it was applied
// or refused already). Its time stays in the evidence: it was an attempt.
// Called with Store.mu held.
func (cs *candidates) withdraw(key string, line int) bool {
	for _, g := range cs.groups {
		k := g.keys[key]
		if k == nil {
			continue
		}
		for i, h := range k.held {
			if h.line == line {
				k.held = slices.Delete(k.held, i, i+1)
				cs.held--
				return true
			}
		}
	}
	return false
}
