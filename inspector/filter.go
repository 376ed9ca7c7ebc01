package inspector

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxFilterQ bounds a filter's q, as the endpoint does.
const maxFilterQ = 1024

// KeyFilter is v1/keys' selection as the endpoint applies it, for sources
// that answer the API in process (a snapshot, a log): q a substring of the
// key or its last error (ignoring case when q is lower case), or after a
// leading "~" a regular expression; error the same over the last error
// alone; states the verdicts to keep (all when none).
type KeyFilter struct {
	q, err textPattern
	states map[api.State]bool
}

// textPattern is one of a filter's patterns; the zero one matches all.
type textPattern struct {
	q    string
	fold bool
	re   *regexp.Regexp
}

func newTextPattern(param, expr string) (textPattern, error) {
	if len(expr) > maxFilterQ {
		return textPattern{}, fmt.Errorf("parameter %q: longer than %d bytes", param, maxFilterQ)
	}
	if rest, ok := strings.CutPrefix(expr, "~"); ok {
		re, err := regexp.Compile(rest)
		if err != nil {
			return textPattern{}, fmt.Errorf("parameter %q: bad regular expression: %v", param, err)
		}
		return textPattern{re: re}, nil
	}
	return textPattern{q: expr, fold: strings.ToLower(expr) == expr}, nil
}

func (p *textPattern) any() bool { return p.re == nil && p.q == "" }

func (p *textPattern) match(s string) bool {
	switch {
	case p.re != nil:
		return p.re.MatchString(s)
	case p.fold:
		return strings.Contains(strings.ToLower(s), p.q)
	}
	return strings.Contains(s, p.q)
}

// NewKeyFilter checks f; its errors name the parameter as the endpoint's do
// (parameter "q": ...), so the CLI says which flag.
func NewKeyFilter(f api.Filter) (*KeyFilter, error) {
	kf := &KeyFilter{}
	var err error
	if kf.q, err = newTextPattern("q", f.Q); err != nil {
		return nil, err
	}
	if kf.err, err = newTextPattern("error", f.Error); err != nil {
		return nil, err
	}
	for _, st := range f.States {
		if _, err := api.ParseState(string(st)); err != nil && st != api.StateUnknown {
			return nil, fmt.Errorf("parameter %q: %v", "state", err)
		}
		if kf.states == nil {
			kf.states = map[api.State]bool{}
		}
		kf.states[st] = true
	}
	return kf, nil
}

// FilterParams reads a filter's parameters from a query: q, error, state.
func FilterParams(v url.Values) api.Filter {
	return api.Filter{Q: v.Get("q"), Error: v.Get("error"), States: StatesParam(v)}
}

// Match reports whether a key named key, with lastError ("" for none), in
// state st passes the filter.
func (f *KeyFilter) Match(key, lastError string, st api.State) bool {
	if f.states != nil && !f.states[st] {
		return false
	}
	if !f.q.any() && !f.q.match(key) && (lastError == "" || !f.q.match(lastError)) {
		return false
	}
	return f.err.any() || (lastError != "" && f.err.match(lastError))
}

// StatesParam reads the state parameter of a query: repeated, or comma-separated.
func StatesParam(v url.Values) []api.State {
	var out []api.State
	for _, s := range v["state"] {
		for st := range strings.SplitSeq(s, ",") {
			if st != "" {
				out = append(out, api.State(st))
			}
		}
	}
	return out
}
