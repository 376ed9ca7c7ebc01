package logs

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A reconciler that logs its own error before returning it writes the
// attempt's cause on a line of its own, at error level, in its own words:
// "Reconciling RoleSet default/x finalize error pods \"p\" not found". It
// names the key, then the word error and the error, but no failure phrase
// the generic reader reads: alone it is no failure (the reconcile may
// have returned nil). controller-runtime's "Warning: Reconciler returned
// both a non-zero result and a non-nil error" that follows it within the
// same attempt says the reconcile did fail; when the paste is cut before
// its "Reconciler error", the warning is the failure (attempt.go), and
// this line's error is its error.

// causeWord is the word error after the key, the error following it.
var causeWord = regexp.MustCompile(`\berror:? `)

// statedCause is a CauseLine waiting for the warning of its attempt.
type statedCause struct {
	at  time.Time
	err string
}

// causeLine reads msg, a line at error level with no failure phrase, as a
// CauseLine: one key named before the word error, the error after it.
func (f *fields) causeLine(msg string) (Record, bool) {
	if !f.severe || f.bare {
		return Record{}, false
	}
	w := causeWord.FindStringIndex(msg)
	if w == nil || strings.TrimSpace(msg[w[1]:]) == "" {
		return Record{}, false
	}
	key, _, ok := messageKey(msg[:w[0]])
	if !ok {
		return Record{}, false
	}
	r := Record{What: CauseLine, At: f.at, Dialect: genericName, Error: orElse(f.err, strings.TrimSpace(msg[w[1]:]))}
	r.Namespace, r.Name = keyParts(key)
	if r.Name == "" {
		return Record{}, false
	}
	r.Controller = f.kcmController(f.genericController(msg, 0, -1), false)
	r.Message = strconv.Quote(msg[w[0]:w[1]])
	return r, true
}

// causeLocked takes a CauseLine: its error goes to a warning of its key
// within attemptWindow after it (warningLocked).
func (s *Store) causeLocked(r Record) {
	if s.causes == nil || len(s.causes) > 4*DefaultMaxKeys {
		s.causes = map[string]statedCause{}
	}
	s.causes[r.Key()] = statedCause{r.At, r.Error}
}
