package logs

import (
	"fmt"
	"time"
)

// A reconciler that logs its error before returning it writes, in every
// failed attempt, a line of its own with the error, then the handler's
// line with the same error (controller-runtime's "Reconciler error").
// When the handler's line of an attempt is missing — a paste cut after
// the reconciler's line (batch7/745: cluster-api's KubeadmControlPlane
// "Failed to update KubeadmControlPlane Status" with the error its
// "Reconciler error" stated six seconds before, the next "Reconciler
// error" cut) — the reconciler's line is the only sign that the attempt
// failed. Its words do not say so (it is a candidate), and one line of
// its template is no structure (evidence.go), but the log says it: the
// key's own failure stated this error, word for word, in an earlier
// attempt, and the error is logged again at error level. At a saved
// log's end, a candidate nothing else decided is read so, as a bare
// failure of the key under the controller that failed it: when the
// handler's line of its attempt does follow, within attemptWindow, that
// line takes its place (attempt.go), and the attempt counts once. A live
// read holds such a line for its template's evidence, as any candidate.

// keyError is the error a key's failure line stated, and where.
type keyError struct {
	at         time.Time
	err        string
	controller string
	line       int
}

// noteKeyError remembers the error of failure line r (the log's line n),
// in the log's order. It runs on every failure line, so a key seen before
// is looked up by its bytes and changed in place: no string is made but
// for a new key (r.Key() made one a line, most of a read's allocations).
func (s *Store) noteKeyError(r *Record, n int) {
	if r.At.IsZero() || r.Error == "" || r.Error == noErrorStated || r.Namespace == "" && r.Name == "" {
		return
	}
	if s.keyErrs == nil || len(s.keyErrs) > 4*DefaultMaxKeys {
		s.keyErrs = map[string]*keyError{}
		s.notes.errGen++
	}
	// Where the key's note says it is, when it is still there (keynote.go).
	note := s.keyNoteOf(r)
	k := note.errOf(s.notes.errGen)
	if k == nil {
		if k = s.keyErrs[string(s.keyErrKeyOf(r))]; k == nil {
			k = &keyError{}
			if note != nil {
				s.keyErrs[note.key] = k
			} else {
				s.keyErrs[string(s.keyErrKey)] = k
			}
		}
		if note != nil {
			note.err, note.errGen = k, s.notes.errGen
		}
	}
	*k = keyError{at: r.At, err: r.Error, controller: r.Controller, line: n}
}

// keyErrKeyOf is r.Key(), built in s.keyErrKey.
func (s *Store) keyErrKeyOf(r *Record) []byte {
	s.keyErrKey = append(s.keyErrKey[:0], r.Namespace...)
	if r.Namespace != "" {
		s.keyErrKey = append(s.keyErrKey, '/')
	}
	s.keyErrKey = append(s.keyErrKey, r.Name...)
	return s.keyErrKey
}

// noteSameError remembers candidate r, the log's line n, when its key's
// last failure line, earlier in time, stated r's error word for word: if
// nothing in the log's structure decides its template, it is that key's
// failure again (sameErrorAgain). A template its evidence decides is
// read as it says: a line of it is the same as any other of it.
//
// A line logged inside Reconcile (it carries controller-runtime's
// reconcileID) is not taken: controller-runtime logs how that attempt
// ended itself, its "Reconciler error" or its "returned both" warning
// (reconcileidline.go, attempt.go), and this line would count the attempt
// a second time beside a warning whose "Reconciler error" was cut.
func (s *Store) noteSameError(r *Record, n int) {
	if r.At.IsZero() || r.Error == "" || r.ReconcileID != "" || r.NotRead == insideReconcile || len(s.again) >= maxHeldCandidates {
		return
	}
	k := s.keyErrs[string(s.keyErrKeyOf(r))]
	if k == nil || k.err != r.Error || !r.At.After(k.at) {
		return
	}
	if s.again == nil {
		s.again = map[int]keyError{}
	}
	s.again[n] = *k // as it is now: the key's next failure changes *k
}

// sameErrorAgain takes the candidates of a saved log that nothing decided
// and returns those noteSameError remembered as bare failures of their
// keys, under the controller that failed them, and the others.
func (s *Store) sameErrorAgain(undecided []heldCandidate) (apply, refuse []heldCandidate) {
	for _, h := range undecided {
		k, ok := s.again[h.line]
		if !ok {
			refuse = append(refuse, h)
			continue
		}
		r := &h.r
		r.Candidate, r.NotRead, r.Tried, r.Bare = false, "", "", true
		r.Controller = k.controller
		r.Evidence = fmt.Sprintf("its key's failure on line %d stated this error word for word, %v before: logged again at error or warning level, in a later attempt, that attempt failed with it (the handler's line of its attempt, if one follows within %v, takes its place)",
			k.line, r.At.Sub(k.at).Round(time.Millisecond), attemptWindow)
		apply = append(apply, h)
	}
	s.again = nil
	return apply, refuse
}
