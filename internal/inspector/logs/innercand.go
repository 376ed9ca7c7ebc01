package logs

import (
	"bytes"
	"slices"
	"strings"
	"time"
)

// A failure's inner cause, logged on its own line just before the
// handler's line that wraps it, is one attempt said twice:
// kube-controller-manager's job controller logs `"Unhandled Error"
// err="pods \"x\" is forbidden: …"` where it fails to create the pod
// (job_controller.go:1941), then `err="syncing job: pods \"x\" is
// forbidden: …"` where the work queue's handler gives up the attempt
// (job_controller.go:753). The attempt is counted once, on the handler's
// line. The inner line, a dialect's failure naming no key, is then no
// line that "looked like a failure but could not be read": what it says
// was read.

const (
	// innerCauseLines is how far before its handler's line an inner cause
	// may be: the job controller puts one key-naming line between them.
	innerCauseLines = 4
	// innerCausePrefix is how much of the inner error the handler's must
	// hold: both may have been cut at the same length.
	innerCausePrefix = 120
)

// unreadLine is a dialect's failure line that named no key, counted as
// unreadable: the inner cause a failure just after may wrap.
type unreadLine struct {
	line int
	at   time.Time
	err  string
}

// innerCause is, for --explain-lines, a line read as an inner cause: the
// line that wraps it, and its error.
type innerCause struct {
	into int
	err  string
}

// noteUnreadable remembers such a line; its error is read off the line,
// which parse left unread. Lines come in the log's order: those more
// than innerCauseLines behind are forgotten, so that a failure line pays
// for no search unless one is near.
func (s *Store) noteUnreadable(r *Record, line []byte, n int) {
	err := errorField(line)
	if err == "" {
		return
	}
	at := r.At
	if at.IsZero() { // parse left it unread too: the runtime's prefix has one
		at, _ = kubeletTime(trimPodPrefix(line))
	}
	s.unread = append(s.recentUnread(n), unreadLine{line: n, at: at, err: err})
	s.holdReadings()
}

// holdReadings holds --explain-lines' readings while a remembered line
// may yet be taken as an inner cause: its reading, "not read" now, is
// given once a failure took it or none can.
func (s *Store) holdReadings() {
	if s.opts.ExplainLines == nil {
		return
	}
	hold := 0
	for _, u := range s.unread {
		hold = max(hold, u.line+innerCauseLines)
	}
	s.mu.Lock()
	s.innerHoldTo = hold
	s.mu.Unlock()
}

// recentUnread is the remembered lines at most innerCauseLines before n.
func (s *Store) recentUnread(n int) []unreadLine {
	return slices.DeleteFunc(s.unread, func(u unreadLine) bool { return n-u.line > innerCauseLines })
}

// noteInnerCause is told of each failure line read, raw as logged: when
// its error wraps a remembered line's (words, ": ", then that line's
// error) at most a second after it, that line is its inner cause, and its
// count as unreadable is taken back. An error equal to the other line's
// is no wrapping: two keys may fail alike.
func (s *Store) noteInnerCause(r *Record, raw []byte, line int) {
	if len(s.unread) == 0 {
		return
	}
	if s.unread = s.recentUnread(line); len(s.unread) == 0 {
		return
	}
	logged := errorField(raw)
	if logged == "" {
		logged = r.Error
	}
	for i, u := range s.unread {
		if !u.at.IsZero() && !r.At.IsZero() && (r.At.Before(u.at) || r.At.Sub(u.at) > time.Second) {
			continue
		}
		if !strings.Contains(logged, ": "+u.err[:min(len(u.err), innerCausePrefix)]) {
			continue
		}
		s.unread = slices.Delete(s.unread, i, i+1)
		s.diag.retract(u.line)
		if s.opts.ExplainLines != nil {
			s.mu.Lock()
			if s.innerOf == nil {
				s.innerOf = map[int]innerCause{}
			}
			s.innerOf[u.line] = innerCause{into: line, err: u.err}
			s.mu.Unlock()
			s.holdReadings()
		}
		return
	}
}

// errorField is the error a line's klog err="…" or JSON "error":"…" field
// holds, unquoted (klogString); "" when it has none.
func errorField(line []byte) string {
	for _, k := range [][]byte{[]byte(` err="`), []byte(`"error":"`)} {
		if i := bytes.Index(line, k); i >= 0 {
			s, _, _ := klogString(line[i+len(k)-1:]) // from the opening quote
			return s
		}
	}
	return ""
}
