package logs

import (
	"strconv"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A handler may say that it gives a key up on a line of its own, and then
// hand the attempt's error to client-go's HandleError: one attempt, two
// lines. sig-storage-lib-external-provisioner v13's
// processNextClaimWorkItem (controller/controller.go:993) logs
// E "Giving up syncing claim because failures >= threshold" key=UID, no
// error, then V(2) "Removing PVC from claims in progress", and returns
// `error syncing claim "UID": ERR` to HandleError; it neither re-adds nor
// forgets the key. processNextVolumeWorkItem (:1043) says the same at
// info level, just before its HandleError line (batch15/1506, 1507).
//
// So, for a failure through HandleError (Record.ViaHandleError):
//   - when its key's last failure line, within attemptWindow before it,
//     is a give-up that carries no error of its own (the generic reader
//     took its message as its error) and was not itself through HandleError, the two are one
//     attempt: counted once, given up, its error the HandleError line's
//     (giveUpEchoLocked);
//   - when the line just before it looked like a failure and was not read
//     (an info line: no level to call it a failure), opens with giving up,
//     names the same key and only it, within attemptWindow, the failure
//     is the give-up (giveUpBefore).
// Either way the key is read as given up only because its own failure
// line follows at once: a give-up line alone counts no failure more than
// before.

// giveUpEchoLocked is echoLocked's case of a give-up said first: it says
// whether r, p's key's next failure, is the error of p's attempt (then it
// is counted there, and its error put on it).
func (s *Store) giveUpEchoLocked(p *saidFailure, r *Record, key string, line int) bool {
	if !r.ViaHandleError || !p.gaveUp || p.via || p.echoed || p.dialect != r.Dialect || !p.noErr || r.Error == "" || r.ErrorIsMessage {
		return false
	}
	if !within(p.at, r.At) {
		return false
	}
	e := s.keys[keyID{r.Controller, key}]
	if e == nil || e.state != api.StateFailed {
		return false
	}
	p.echoed = true
	e.giveUpError(r, &s.classes)
	if s.opts.ExplainLines != nil && line > 0 {
		if s.giveUpOf == nil {
			s.giveUpOf = map[int]int{}
		}
		s.giveUpOf[line] = p.line
	}
	return true
}

// giveUpError puts r's error on e's give-up attempt, the last, whose line
// said no error of its own.
func (e *entry) giveUpError(r *Record, classes *classCache) {
	msg := truncateError(r.Error)
	class := classes.of(msg, false)
	if a := e.history.last(); a != nil && a.Outcome == api.OutcomeError {
		a.Error, a.Class = msg, class
	}
	if e.lastErr != nil {
		e.lastErr.Message, e.lastErr.Class = msg, class
	}
}

// giveUpBefore says whether the line just before r, a failure through
// HandleError, is its handler's give-up of the same key (above); it then
// marks r given up.
func (s *Store) giveUpBefore(r *Record, pr parseRef) bool {
	b := &s.before
	if !r.ViaHandleError || r.GaveUp || r.Terminal || len(b.raw) == 0 || b.applied != s.linesApplied-1 {
		return false
	}
	bf := beforeFields(b.raw, pr)
	if bf.severe || bf.err != "" {
		return false // read as a failure of its own, or one with its error
	}
	d := dropPhrase.FindStringIndex(bf.msg)
	if d == nil || d[0] != opening(bf.msg) {
		return false
	}
	if key, _ := bf.oneKey(); key == "" || key != r.Key() {
		return false
	}
	if !within(bf.at, r.At) {
		return false
	}
	r.GaveUp = true
	if n, ok := bf.statedFailures(bf.msg); ok && r.Retries == 0 {
		r.Retries = n + 1 // the count it gave up at, this failure with it (entry.gaveUp)
	}
	if b.unreadable {
		s.diag.retract(b.line)
	}
	r.Evidence = joinEvidence(r.Evidence, "the line just before it, "+strconv.Itoa(b.line)+", its handler's give-up of the same key: the attempt's last")
	return true
}

func joinEvidence(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
