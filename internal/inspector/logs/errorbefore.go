package logs

import (
	"strconv"
	"strings"
)

// A handler that logs an attempt's requeue with the key and the queue's
// count but not the error (a counted requeue, countedrequeue.go) may have
// logged the error on the line just before, without the key: whereabouts'
// worker logs "result of garbage collecting pods: ERR" for every attempt,
// then "re-queuing IP address reconciliation request for pod NS/NAME;
// retry #: N" (batch21/2113). The requeue takes that line's error when all
// of these hold: it is the line applied just before (two workers' attempts
// interleave: no error is better than another key's), it looked like a
// failure and was not read (noteLineBefore kept it), it names no key in its fields, it states an
// error (an error field, or what follows its message's ": "), and its time
// is within attemptWindow of the requeue's.

// errorBefore puts on r, a counted requeue that states no error, the error
// of the line just before it (above); false when that line is not its
// attempt's.
func (s *Store) errorBefore(r *Record, pr parseRef) bool {
	b := &s.before
	if r.Error != noErrorStated || !strings.HasPrefix(r.Evidence, countedRequeueWords) ||
		len(b.raw) == 0 || b.applied != s.linesApplied-1 {
		return false
	}
	bf := beforeFields(b.raw, pr)
	if bf.msg == "" {
		bf = plainFields(b.raw) // a plain text line ("TIME [verbose] MSG"), as parsePlainFormat reads it
	}
	if key, _ := bf.oneKey(); key != "" {
		return false
	}
	err := bf.err
	if e := errorAfter(bf.msg, 0); err == "" && e != bf.msg {
		err = e
	}
	if strings.TrimSpace(err) == "" || !within(bf.at, r.At) {
		return false
	}
	r.Error, r.ErrorIsMessage = err, false
	if b.unreadable {
		s.diag.retract(b.line) // it said what the requeue's attempt was
	}
	r.Evidence = joinEvidence(r.Evidence, "its error stated by the line just before it, "+strconv.Itoa(b.line)+", which names no key: its attempt's result")
	return true
}

// plainFields are a plain text line's fields, read as parsePlainFormat
// reads them (beforeFields reads the structured formats).
func plainFields(line []byte) fields {
	at, body := kubeletTime(trimPodPrefix(collected(trimEOL(line))))
	var f fields
	if !parsePlain(body, &f) {
		return fields{}
	}
	if !at.IsZero() {
		f.at = at
	}
	return f
}
