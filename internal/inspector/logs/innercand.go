package logs

import (
	"bytes"
	"slices"
	"strconv"
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
// line. The inner line, a candidate its template's evidence refuses, is
// then no line that "looked like a failure but could not be read": what
// it says was read.

const (
	// innerCauseLines is how far before its handler's line an inner cause
	// may be: the job controller puts one key-naming line between them.
	innerCauseLines = 4
	// innerCausePrefix is how much of the inner error the handler's must
	// hold: both may have been cut at the same length.
	innerCausePrefix = 120
	// maxInnerCauses bounds the lines remembered until the candidates are
	// decided (a saved log's at its end): past it, an inner line is
	// counted as unreadable, as before.
	maxInnerCauses = 4096
)

// recentCandidate is a line that looked like a failure and was not read
// at once: a candidate of the generic reader, held until its template is
// judged, or a dialect's failure naming no key, counted as unreadable at
// once (counted).
type recentCandidate struct {
	line    int
	at      time.Time
	err     string
	counted bool
}

// recentCandidates is how many such lines are remembered: a failure
// held to be applied in time order (order.go) comes after lines read
// after it.
const recentCandidates = 8

// noteCandidate remembers candidate r, read from line, as the inner cause
// a failure just after may wrap.
func (s *Store) noteCandidate(r *Record, line int) {
	s.remember(recentCandidate{line: line, at: r.At, err: r.Error})
}

// noteUnreadable remembers a dialect's failure line that named no key,
// counted as unreadable, as the inner cause a failure just after may
// wrap; its error is read off the line, which parse left unread.
func (s *Store) noteUnreadable(r *Record, line []byte, n int) {
	if err := errorField(line); err != "" {
		at := r.At
		if at.IsZero() { // parse left it unread too: the runtime's prefix has one
			at, _ = kubeletTime(trimPodPrefix(line))
		}
		s.remember(recentCandidate{line: n, at: at, err: err, counted: true})
	}
}

func (s *Store) remember(c recentCandidate) {
	if c.err == "" {
		return
	}
	if len(s.lastCands) == recentCandidates {
		s.lastCands = append(s.lastCands[:0], s.lastCands[1:]...)
	}
	s.lastCands = append(s.lastCands, c)
}

// noteInnerCause is told of each failure line read, raw as logged: when
// its error wraps a remembered line's (words, ": ", then that line's
// error), a few lines and at most a second after it, that line is its
// inner cause. One counted as unreadable is taken back at once; a
// candidate is remembered until its template is judged. An error equal
// to the other line's is no wrapping: two keys may fail alike.
func (s *Store) noteInnerCause(r *Record, raw []byte, line int) {
	if len(s.lastCands) == 0 {
		return
	}
	logged := errorField(raw)
	if logged == "" {
		logged = r.Error
	}
	for i, c := range s.lastCands {
		if line <= c.line || line-c.line > innerCauseLines {
			continue
		}
		if !c.at.IsZero() && !r.At.IsZero() && (r.At.Before(c.at) || r.At.Sub(c.at) > time.Second) {
			continue
		}
		if !strings.Contains(logged, ": "+c.err[:min(len(c.err), innerCausePrefix)]) {
			continue
		}
		s.lastCands = slices.Delete(s.lastCands, i, i+1)
		if c.counted {
			s.diag.retract(c.line)
			return
		}
		s.mu.Lock()
		if len(s.innerCauses) < maxInnerCauses {
			if s.innerCauses == nil {
				s.innerCauses = map[int]int{}
			}
			s.innerCauses[c.line] = line
		}
		s.mu.Unlock()
		return
	}
}

// innerCauseOf is the line of the failure whose inner cause line is, or 0;
// it is forgotten once asked for.
func (s *Store) innerCauseOf(line int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	to, ok := s.innerCauses[line]
	if ok {
		delete(s.innerCauses, line)
	}
	return to
}

// errorField is the error a line's klog err="…" or JSON "error":"…" field
// holds, unquoted; "" when it has none.
func errorField(line []byte) string {
	for _, k := range [][]byte{[]byte(` err="`), []byte(`"error":"`)} {
		i := bytes.Index(line, k)
		if i < 0 {
			continue
		}
		v := line[i+len(k)-1:] // from the opening quote
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case '\\':
				j++
			case '"':
				if u, err := strconv.Unquote(string(v[:j+1])); err == nil {
					return u
				}
				return ""
			}
		}
	}
	return ""
}
