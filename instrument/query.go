package instrument

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxOffset bounds the offset parameter. The window a page is selected in
// is bounded apart (api.MaxWindow): the first or the last keys.
const maxOffset = 1_000_000

// keyQuery is a parsed v1/keys request.
type keyQuery struct {
	controller string
	filter     *matcher
	sort       string
	limit      int
	offset     int
	// after, from a continue token, is the last row of the previous page:
	// this page starts after it.
	after *cursor
	// scope is what a continue token must have been issued for: the
	// controller, q, error and states (the sort is in the token itself).
	scope uint32
}

var keysParams = []string{"controller", "q", "error", "state", "sort", "limit", "offset", "continue"}

// parseQuery parses a raw query strictly (parseRawQuery) and checks its
// parameters (checkParams).
func parseQuery(raw string, known []string, repeatable ...string) (url.Values, error) {
	v, err := parseRawQuery(raw)
	if err != nil {
		return nil, err
	}
	return v, checkParams(v, known, repeatable...)
}

// parseRawQuery parses a raw query strictly: a malformed pair (a bare %, a
// semicolon) is an error, not a pair silently dropped.
func parseRawQuery(raw string) (url.Values, error) {
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil, newError(kindInvalid, "malformed query %q: %v; separate parameters with & and percent-encode values", truncate(raw, 200), err)
	}
	return v, nil
}

// checkParams refuses a parameter that is not in known, or one given twice
// unless repeatable.
func checkParams(v url.Values, known []string, repeatable ...string) error {
	for name, vals := range v {
		if !slices.Contains(known, name) {
			if len(known) == 0 {
				return badParam(name, "unknown parameter; this endpoint takes none")
			}
			return badParam(name, "unknown parameter; known: %s", strings.Join(known, ", "))
		}
		if len(vals) > 1 && !slices.Contains(repeatable, name) {
			return badParam(name, "given %d times; give it once", len(vals))
		}
	}
	return nil
}

// parseKeyQuery validates the v1/keys parameters. Every error names the
// parameter at fault.
func parseKeyQuery(v url.Values) (*keyQuery, error) {
	if err := checkParams(v, keysParams, "state"); err != nil {
		return nil, err
	}
	q := &keyQuery{controller: v.Get("controller"), sort: api.SortNext, limit: api.DefaultLimit}
	states, err := parseStates(v["state"])
	if err != nil {
		return nil, err
	}
	f := api.Filter{Q: v.Get("q"), Error: v.Get("error"), States: states}
	if q.filter, err = newMatcher(f); err != nil {
		return nil, err
	}
	if q.sort, err = api.ParseSort(v.Get("sort")); err != nil {
		return nil, badParam("sort", "%v", err)
	}
	if q.limit, err = intParam(v, "limit", api.DefaultLimit, 1, api.MaxLimit); err != nil {
		return nil, err
	}
	if q.offset, err = intParam(v, "offset", 0, 0, maxOffset); err != nil {
		return nil, err
	}
	q.scope = scopeOf(q.controller, f)
	if tok := v.Get("continue"); tok != "" {
		if q.after, err = decodeCursor(tok, q); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// parseStates splits state values, comma-separated or repeated; newMatcher
// checks each.
func parseStates(vals []string) ([]api.State, error) {
	var states []api.State
	for _, s := range vals {
		for part := range strings.SplitSeq(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				states = append(states, api.State(part))
			}
		}
	}
	return states, nil
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
