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
// leading "~" a regular expression; states the verdicts to keep (all when
// none).
type KeyFilter struct {
	q      string
	fold   bool
	re     *regexp.Regexp
	states map[api.State]bool
}

// NewKeyFilter checks q and states; its errors name the parameter as the
// endpoint's do (parameter "q": ...), so the CLI says which flag.
func NewKeyFilter(q string, states []api.State) (*KeyFilter, error) {
	f := &KeyFilter{}
	if len(q) > maxFilterQ {
		return nil, fmt.Errorf("parameter %q: longer than %d bytes", "q", maxFilterQ)
	}
	if rest, ok := strings.CutPrefix(q, "~"); ok {
		re, err := regexp.Compile(rest)
		if err != nil {
			return nil, fmt.Errorf("parameter %q: bad regular expression: %v", "q", err)
		}
		f.re = re
	} else {
		f.q, f.fold = q, strings.ToLower(q) == q
	}
	for _, st := range states {
		if _, err := api.ParseState(string(st)); err != nil && st != api.StateUnknown {
			return nil, fmt.Errorf("parameter %q: %v", "state", err)
		}
		if f.states == nil {
			f.states = map[api.State]bool{}
		}
		f.states[st] = true
	}
	return f, nil
}

// Match reports whether a key named key, with lastError ("" for none), in
// state st passes the filter.
func (f *KeyFilter) Match(key, lastError string, st api.State) bool {
	if f.states != nil && !f.states[st] {
		return false
	}
	switch {
	case f.re != nil:
		return f.re.MatchString(key) || (lastError != "" && f.re.MatchString(lastError))
	case f.q == "":
		return true
	case f.fold:
		return strings.Contains(strings.ToLower(key), f.q) || strings.Contains(strings.ToLower(lastError), f.q)
	}
	return strings.Contains(key, f.q) || strings.Contains(lastError, f.q)
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
