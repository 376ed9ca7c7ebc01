package logs

import "time"

// A controller may log its failure and then hand the same error to
// client-go's HandleError: one attempt said twice. cloud-provider's node
// controller (controllers/node/node_controller.go) logs
// klog.Infof("error syncing '%s': %v, requeuing") and returns the same
// text, fmt.Errorf'd, to utilruntime.HandleError, which logs it as
// `"Unhandled Error" err="error syncing '…': …, requeuing"` (batch14/1410).
// So a failure line through HandleError (Record.ViaHandleError) that
// repeats its key's last failure line word for word (the same message
// read, the same error), within attemptWindow after it, that line not
// itself through HandleError and not yet echoed, is that attempt: counted
// once, on the first. The next attempt logs its own first line, so two
// attempts are never one however soon the limiter retries.

// saidFailure is a key's last failure line, for an echo that may follow.
type saidFailure struct {
	key               string // its key in Store.said
	at                time.Time
	dialect, msg, err string
	line              int
	via, echoed       bool
	gaveUp, noErr     bool // the line gave the key up, stating no error (giveup.go)
}

// echoLocked notes r, a failure, as its key's last, and says whether it
// is the echo of the one before (then counted there, not here). It runs
// on every failure line, so a key seen before is looked up by its bytes
// and changed in place: no string is made but for a new key.
func (s *Store) echoLocked(r *Record, line int) bool {
	if r.What != ErrorLine || r.Bare || r.Candidate {
		return false
	}
	s.echoKey = append(s.echoKey[:0], r.Namespace...)
	if r.Namespace != "" {
		s.echoKey = append(s.echoKey, '/')
	}
	s.echoKey = append(s.echoKey, r.Name...)
	// The key's failure lines come in a run (its retries), so the last
	// one's is compared first: the map's entry of a key among thousands
	// is looked up cold.
	p := s.lastSaid
	note := s.notes.applying(r) // keynote.go
	if p == nil || p.key != string(s.echoKey) {
		if p = note.saidOf(s.notes.saidGen); p == nil {
			p = s.said[string(s.echoKey)]
			if p != nil && note != nil {
				note.said, note.saidGen = p, s.notes.saidGen
			}
		}
	}
	if p != nil && (s.giveUpEchoLocked(p, r, string(s.echoKey), line) || s.endsAttemptLocked(p, r, string(s.echoKey))) {
		return true
	}
	if p != nil && r.ViaHandleError && !p.via && !p.echoed && p.dialect == r.Dialect &&
		p.msg == r.Message && p.err == r.Error && !r.At.IsZero() && !p.at.IsZero() {
		if d := r.At.Sub(p.at); d >= 0 && d <= attemptWindow {
			p.echoed = true
			if s.opts.ExplainLines != nil && line > 0 {
				if s.echoOf == nil {
					s.echoOf = map[int]int{}
				}
				s.echoOf[line] = p.line
			}
			return true
		}
	}
	if p == nil {
		if s.said == nil || len(s.said) > 4*DefaultMaxKeys {
			s.said = map[string]*saidFailure{}
			s.notes.saidGen++
		}
		if note != nil {
			p = &saidFailure{key: note.key}
			note.said, note.saidGen = p, s.notes.saidGen
		} else {
			p = &saidFailure{key: string(s.echoKey)}
		}
		s.said[p.key] = p
	}
	*p = saidFailure{p.key, r.At, r.Dialect, r.Message, r.Error, line, r.ViaHandleError, false, r.GaveUp, r.ErrorIsMessage}
	s.lastSaid = p
	return false
}
