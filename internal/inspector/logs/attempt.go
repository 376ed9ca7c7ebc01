package logs

import (
	"strings"
	"time"
)

// attemptWindow is how close two lines of different templates naming one
// key must be to be one attempt: a handler logs its line right after the
// inner cause's (milliseconds; one second where a logger writes seconds).
const attemptWindow = time.Second

// One attempt may be logged twice: an inner cause at E level ("fail to
// sync KEY: ERR", read because it opens with the failure and names the
// key: Record.Bare), then the handler's line that says it will retry or
// drop the key. One attempt counts once, as the handler's. So a bare
// failure waits attemptWindow (in the log's time) before it counts: a
// handler's line of the same key within it (under whichever controller
// name) takes its place; another bare line of another template within it
// (Zalando's W, then E) replaces it, the later being the handler's. A line
// of the same template is the next attempt, however soon (the default
// limiter retries after 5ms).

// pendingBare is a bare failure waiting out attemptWindow.
type pendingBare struct {
	r    Record
	line int // the log's line, for --explain-lines
	// warning says r was a WarningLine: a named dialect's failure line of
	// its attempt takes its place (dropWarned).
	warning bool
}

// handledAt is when a key's handler last logged a failure, and on which
// line.
type handledAt struct {
	at   time.Time
	line int
}

// attemptLocked takes a generic failure r in; it says whether r was
// handled here (held, dropped or merged) rather than to be applied now.
func (s *Store) attemptLocked(r *Record, line int) bool {
	if r.What == WarningLine {
		s.warningLocked(*r, line)
		return true
	}
	if r.What != ErrorLine || r.Dialect != genericName || !r.At.IsZero() {
		s.flushUntimedLocked() // held for a generic untimed line alone: untimed.go
	}
	if r.What == ErrorLine && r.ReconcileID != "" && s.reconcileIDLocked(r, line) {
		return true
	}
	if r.What != ErrorLine {
		return false
	}
	if r.Dialect != genericName {
		// A named dialect's failure line is its attempt's handler's
		// ("Reconciler error"): the warning and the bare inner cause
		// just before it are the same attempt.
		if len(s.pending) == 0 {
			return false // nothing waits: r's key is not even built
		}
		s.pending = s.dropWarned(s.pending, r, line)
		if !r.At.IsZero() {
			s.pending = s.dropNear(s.pending, r.Key(), line, func(t time.Time) bool {
				d := r.At.Sub(t)
				return d >= 0 && d <= attemptWindow
			})
		}
		return false
	}
	key := r.Key()
	if r.At.IsZero() {
		return s.untimedLocked(r, key, line)
	}
	near := func(t time.Time) bool { d := r.At.Sub(t); return d <= attemptWindow && d >= -attemptWindow }
	if !r.Bare {
		// The handler's line: the bare lines of its attempt are its cause.
		s.pending = s.dropNear(s.pending, key, line, near)
		if s.handled == nil || len(s.handled) > 4*DefaultMaxKeys {
			s.handled = map[string]handledAt{}
		}
		s.handled[key] = handledAt{r.At, line}
		return false
	}
	if h, ok := s.handled[key]; ok && near(h.at) {
		s.noteMerged(line, h.line)
		return true
	}
	for i := range s.pending {
		p := &s.pending[i]
		if !p.warning && p.r.Key() == key && near(p.r.At) && p.r.Template != r.Template && oneCause(p.r.Error, r.Error) {
			if !r.At.Before(p.r.At) {
				s.noteMerged(p.line, line)
				p.r, p.line = *r, line
			} else {
				s.noteMerged(line, p.line)
			}
			return true
		}
	}
	s.pending = append(s.pending, pendingBare{r: *r, line: line})
	return true
}

// oneCause says two bare failures' errors can be one attempt's: one
// says the other (a handler's line wraps its inner cause's error), or
// either says none. Two controllers failing on one key at one moment
// (kube-controller-manager's serviceaccounts and root-CA publisher, both
// keyed by the namespace: batch14/1420) say two unrelated errors.
func oneCause(a, b string) bool {
	return a == "" || b == "" || strings.Contains(a, b) || strings.Contains(b, a)
}

// warningLocked holds a WarningLine as a bare failure is held: the
// failure line of its attempt, when it follows, takes its place
// (dropWarned). A bare line of its key just before it (the reconciler's
// own inner cause) is the same attempt: its error is the warning's.
func (s *Store) warningLocked(r Record, line int) {
	if r.ReconcileID != "" {
		// Its attempt's failure line already read (the same reconcileID):
		// a log that shipped the two out of order, the warning after the
		// "Reconciler error" that reconcileHandler logs after it. It is
		// that attempt's, not another (batch18/1806).
		if h, ok := s.handledIDs.lookup(r.ReconcileID); ok {
			s.noteMerged(line, h)
			return
		}
	}
	r.What, r.Error = ErrorLine, warningNoError
	key := r.Key()
	for i := range s.pending {
		p := &s.pending[i]
		if d := r.At.Sub(p.r.At); !p.warning && p.r.Key() == key && d >= 0 && d <= attemptWindow {
			s.noteMerged(p.line, line)
			r.Error, r.Terminal = p.r.Error, p.r.Terminal
			p.r, p.line, p.warning = r, line, true
			return
		}
	}
	if c, ok := s.causes[key]; ok {
		if d := r.At.Sub(c.at); !r.At.IsZero() && !c.at.IsZero() && d >= 0 && d <= attemptWindow {
			r.Error = c.err
		}
	}
	s.pending = append(s.pending, pendingBare{r, line, true})
}

// warningNoError is the error of a warning counted as its attempt's
// failure: the warning says none, and the line that says it is not in the
// log.
const warningNoError = "(not in the log: its failure line is missing)"

// dropWarned drops the pending warnings r, a failure line of a named
// dialect, is the attempt of: of its reconcileID when both say one, else
// of its key within attemptWindow (or, times unknown, the last of its key).
func (s *Store) dropWarned(ps []pendingBare, r *Record, line int) []pendingBare {
	key, out := r.Key(), ps[:0]
	for i, p := range ps {
		same := false
		switch {
		case !p.warning || p.r.Key() != key:
		case p.r.ReconcileID != "" && r.ReconcileID != "":
			same = p.r.ReconcileID == r.ReconcileID
		case p.r.At.IsZero() || r.At.IsZero():
			same = i == len(ps)-1
		default:
			d := r.At.Sub(p.r.At)
			same = d >= 0 && d <= attemptWindow
		}
		if same {
			s.noteMerged(p.line, line)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// statedCount is a CountLine waiting for the failure of its attempt.
type statedCount struct {
	at time.Time
	n  int
}

// countLocked takes a CountLine: its count goes to the key's next failure
// within attemptWindow, the failure of the same attempt (the CSI
// provisioner logs the count, then HandleError the error).
func (s *Store) countLocked(r Record) {
	if s.counts == nil || len(s.counts) > 4*DefaultMaxKeys {
		s.counts = map[string]statedCount{}
	}
	s.counts[r.Key()] = statedCount{r.At, r.Retries}
}

// statedLocked puts a count held by countLocked on r, a failure of its
// key within attemptWindow after it.
func (s *Store) statedLocked(r *Record) {
	if len(s.counts) == 0 {
		return // most logs state no count: r's key is not even built
	}
	c, ok := s.counts[r.Key()]
	if !ok || r.What != ErrorLine || r.GaveUp || r.Terminal {
		return
	}
	delete(s.counts, r.Key())
	if d := r.At.Sub(c.at); r.Retries == 0 && (r.At.IsZero() || c.at.IsZero() || d >= 0 && d <= attemptWindow) {
		r.Retries = c.n
	}
}

// dropNear drops the pending failures of key near in time: they are
// counted on the handler's line.
func (s *Store) dropNear(ps []pendingBare, key string, line int, near func(time.Time) bool) []pendingBare {
	out := ps[:0]
	for _, p := range ps {
		if p.r.Key() != key || !near(p.r.At) {
			out = append(out, p)
		} else {
			s.noteMerged(p.line, line)
		}
	}
	return out
}

// flushPendingLocked applies the bare failures older than before by more
// than attemptWindow; a zero before applies them all (the log ended, or
// someone asks).
func (s *Store) flushPendingLocked(before time.Time) {
	if len(s.finished) > 0 {
		s.flushFinishedLocked(before)
	}
	s.flushBareLocked(before)
}

// flushBareLocked is flushPendingLocked for the bare failures alone.
func (s *Store) flushBareLocked(before time.Time) {
	if len(s.pending) > 0 {
		s.applyDueLocked(&s.pending, before)
	}
}

// applyDueLocked applies the records of *held older than before by more
// than attemptWindow (all of them for a zero before), in their order;
// *held keeps the rest, set before any is applied (explain's lines wait
// while a bare failure is held: explainlines.go).
func (s *Store) applyDueLocked(held *[]pendingBare, before time.Time) {
	keep := (*held)[:0]
	var due []Record
	for _, p := range *held {
		if before.IsZero() || p.r.At.Add(attemptWindow).Before(before) {
			due = append(due, p.r)
		} else {
			keep = append(keep, p)
		}
	}
	*held = keep
	for i := range due {
		s.applyLocked(&due[i])
	}
}
