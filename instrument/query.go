package instrument

import (
	"fmt"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Query bounds.
const (
	// maxOffset bounds paging depth (and so the work of one request).
	maxOffset = 1_000_000
	// maxQueryLen bounds q, so a filter can't be made arbitrarily costly.
	maxQueryLen = 1024
)

// keyQuery is a parsed v1/keys request.
type keyQuery struct {
	controller string
	filter     matcher
	sort       string
	limit      int
	offset     int
}

// matcher is a parsed Filter: a substring (smart case: case-insensitive unless
// it has an upper-case letter) or, with a leading "~", a regular expression,
// over the key and its last error; and a set of states.
type matcher struct {
	q      string
	fold   bool
	re     *regexp.Regexp
	states map[api.State]bool
}

var keysParams = map[string]bool{"controller": true, "q": true, "state": true, "sort": true, "limit": true, "offset": true}

// paramError is a bad query parameter or body field; it becomes a 400.
type paramError struct{ name, msg string }

// Error implements error.
func (e *paramError) Error() string { return fmt.Sprintf("parameter %q: %s", e.name, e.msg) }

func badParam(name, format string, args ...any) error {
	return &paramError{name: name, msg: fmt.Sprintf(format, args...)}
}

// parseKeyQuery validates the v1/keys parameters. Every error names the
// parameter at fault.
func parseKeyQuery(v url.Values) (*keyQuery, error) {
	for name, vals := range v {
		if !keysParams[name] {
			return nil, badParam(name, "unknown parameter; known: controller, q, state, sort, limit, offset")
		}
		if name != "state" && len(vals) > 1 {
			return nil, badParam(name, "given %d times; give it once", len(vals))
		}
	}
	q := &keyQuery{controller: v.Get("controller"), sort: api.SortNext, limit: api.DefaultLimit}
	var states []api.State
	for _, s := range v["state"] {
		for part := range strings.SplitSeq(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				states = append(states, api.State(part))
			}
		}
	}
	m, err := newMatcher(api.Filter{Q: v.Get("q"), States: states})
	if err != nil {
		return nil, err
	}
	q.filter = m
	if q.sort, err = api.ParseSort(v.Get("sort")); err != nil {
		return nil, badParam("sort", "%v", err)
	}
	if q.limit, err = intParam(v, "limit", api.DefaultLimit, 1, api.MaxLimit); err != nil {
		return nil, err
	}
	if q.offset, err = intParam(v, "offset", 0, 0, maxOffset); err != nil {
		return nil, err
	}
	return q, nil
}

func intParam(v url.Values, name string, def, lo, hi int) (int, error) {
	s := v.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, badParam(name, "%q is not an integer", s)
	}
	if n < lo || n > hi {
		return 0, badParam(name, "%d is out of range [%d, %d]", n, lo, hi)
	}
	return n, nil
}

// newMatcher validates f. States must be known verdicts; a "~" regex must compile.
func newMatcher(f api.Filter) (matcher, error) {
	m := matcher{}
	if len(f.Q) > maxQueryLen {
		return m, badParam("q", "longer than %d bytes", maxQueryLen)
	}
	if rest, ok := strings.CutPrefix(f.Q, "~"); ok {
		re, err := regexp.Compile(rest)
		if err != nil {
			return m, badParam("q", "bad regular expression: %v", err)
		}
		m.re = re
	} else if f.Q != "" {
		m.q = f.Q
		m.fold = strings.ToLower(f.Q) == f.Q
	}
	for _, s := range f.States {
		if _, err := api.ParseState(string(s)); err != nil {
			return m, badParam("state", "%v", err)
		}
		if m.states == nil {
			m.states = make(map[api.State]bool, len(f.States))
		}
		m.states[s] = true
	}
	return m, nil
}

// match reports whether a key in state st with last error lastErr passes.
func (m *matcher) match(key, lastErr string, st api.State) bool {
	if m.states != nil && !m.states[st] {
		return false
	}
	switch {
	case m.re != nil:
		return m.re.MatchString(key) || (lastErr != "" && m.re.MatchString(lastErr))
	case m.q == "":
		return true
	case m.fold:
		return containsFold(key, m.q) || containsFold(lastErr, m.q)
	}
	return strings.Contains(key, m.q) || strings.Contains(lastErr, m.q)
}

// containsFold is strings.Contains with ASCII case folding of s; sub is
// already lower case. It does not allocate, which matters over 100,000 keys.
func containsFold(s, sub string) bool {
	n := len(sub)
outer:
	for i := 0; i+n <= len(s); i++ {
		for j := 0; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				continue outer
			}
		}
		return true
	}
	return false
}
