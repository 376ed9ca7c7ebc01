package query

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// MaxOffset bounds the offset parameter on every source. The window a page
// is selected in is bounded apart (api.MaxWindow): the first or the last
// keys; past it, continue goes as deep as the list does.
const MaxOffset = 1_000_000

// KeysParams are the parameters v1/keys takes; state may repeat.
var KeysParams = []string{"controller", "q", "error", "state", "sort", "limit", "offset", "continue"}

// ErrorsParams are the parameters v1/errors takes; state may repeat.
var ErrorsParams = []string{"controller", "q", "error", "state"}

// KeyParams are the parameters v1/key takes.
var KeyParams = []string{"controller", "key", "handle"}

// LogStates are the states a key reconstructed from a log (or a snapshot,
// which may hold such keys) can be in: api.States and api.StateUnknown.
var LogStates = append(slices.Clone(api.States), api.StateUnknown)

// NamelessField is the field a 400 names when the parameter at fault has
// no name ("=0", "&=x"): the query string as a whole, since there is no
// name to map to a flag, and every 400 names a field.
const NamelessField = "query"

// ParseRaw parses a raw query strictly: a malformed pair (a bare %, a
// semicolon) is an error naming the parameter it is in, not a pair silently
// dropped as url.ParseQuery drops it.
func ParseRaw(raw string) (url.Values, error) {
	v := url.Values{}
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		rawKey, rawVal, _ := strings.Cut(pair, "=")
		rawKey, _, _ = strings.Cut(rawKey, ";") // name the parameter a semicolon follows
		name, kerr := url.QueryUnescape(rawKey)
		if kerr != nil {
			name = rawKey
		}
		if name == "" {
			return nil, nameless(pair)
		}
		if strings.Contains(pair, ";") {
			return nil, Invalid(name, "malformed query %q: a semicolon; separate parameters with & and percent-encode values", truncate(pair, 200))
		}
		val, verr := url.QueryUnescape(rawVal)
		if kerr != nil || verr != nil {
			return nil, Invalid(name, "malformed query %q: a bad %%-escape; percent-encode values", truncate(pair, 200))
		}
		v[name] = append(v[name], val)
	}
	return v, nil
}

// truncate shortens s to at most n bytes, saying so.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ParseParams parses a raw query strictly (ParseRaw) and checks its
// parameters (CheckParams): what every endpoint whose parameters are fixed
// (v1/controllers, v1/key, v1/forget's query) does first.
func ParseParams(raw string, known []string, repeatable ...string) (url.Values, error) {
	v, err := ParseRaw(raw)
	if err != nil {
		return nil, err
	}
	return v, CheckParams(v, known, repeatable...)
}

// CheckParams refuses a parameter that is not in known (400 naming it), or
// one given twice unless repeatable.
func CheckParams(v url.Values, known []string, repeatable ...string) error {
	names := make([]string, 0, len(v))
	for name := range v {
		names = append(names, name)
	}
	slices.Sort(names) // the same parameter named whatever the map's order
	for _, name := range names {
		if name == "" {
			return nameless("=" + strings.Join(v[name], "&="))
		}
		if !slices.Contains(known, name) {
			if len(known) == 0 {
				return Invalid(name, "unknown parameter; this endpoint takes none")
			}
			return Invalid(name, "unknown parameter; known: %s", strings.Join(known, ", "))
		}
		if n := len(v[name]); n > 1 && !slices.Contains(repeatable, name) {
			return Invalid(name, "given %d times; give it once", n)
		}
	}
	return nil
}

// ParseStates is the one reading of a state list: values repeated or
// comma-separated, spaces trimmed, empty parts dropped, each a state of
// valid (api.States for the endpoint, LogStates for a log or a snapshot).
func ParseStates(vals []string, valid []api.State) ([]api.State, error) {
	var states []api.State
	for _, s := range vals {
		for part := range strings.SplitSeq(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if err := checkState(api.State(part), valid); err != nil {
				return nil, err
			}
			states = append(states, api.State(part))
		}
	}
	return states, nil
}

// checkState refuses a state not in valid, listing the valid ones.
func checkState(s api.State, valid []api.State) error {
	if slices.Contains(valid, s) {
		return nil
	}
	names := make([]string, len(valid))
	for i, v := range valid {
		names[i] = string(v)
	}
	list := strings.Join(names, ", ")
	if i := strings.LastIndex(list, ", "); i >= 0 {
		list = list[:i] + " or " + list[i+2:]
	}
	e := Invalid("state", "%q is not a state; use %s", s, list)
	e.Value = string(s)
	return e
}

// Int is the integer parameter name given as s: def when empty, refused
// unless in [lo, hi].
func Int(name, s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, Invalid(name, "%q is not an integer", s)
	}
	if n < lo || n > hi {
		return 0, Invalid(name, "%d is out of range [%d, %d]", n, lo, hi)
	}
	return n, nil
}

// Keys is a parsed v1/keys request.
type Keys struct {
	Controller string
	Filter     api.Filter
	Matcher    *Matcher
	Sort       string
	Limit      int
	Offset     int
	// After, from a continue token, is the last row of the previous page:
	// this page starts after it.
	After *Cursor
	// Scope is what a continue token must have been issued for: the
	// controller, q, error and states (the sort is in the token itself).
	Scope uint32
}

// ParseKeys validates the v1/keys parameters, states of valid. Every error
// names the parameter at fault.
func ParseKeys(v url.Values, valid []api.State) (*Keys, error) {
	if err := CheckParams(v, KeysParams, "state"); err != nil {
		return nil, err
	}
	q := &Keys{Controller: v.Get("controller")}
	var err error
	if q.Matcher, q.Filter, err = ParseFilter(v, valid); err != nil {
		return nil, err
	}
	if q.Sort, err = api.ParseSort(v.Get("sort")); err != nil {
		return nil, Invalid("sort", "%v", err)
	}
	if q.Limit, err = Int("limit", v.Get("limit"), api.DefaultLimit, 1, api.MaxLimit); err != nil {
		return nil, err
	}
	if q.Offset, err = Int("offset", v.Get("offset"), 0, 0, MaxOffset); err != nil {
		return nil, err
	}
	q.Scope = ScopeOf(q.Controller, q.Filter)
	if tok := v.Get("continue"); tok != "" {
		if q.After, err = decodeCursor(tok, q); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// ParseErrors validates the v1/errors parameters: the controller and a filter.
func ParseErrors(v url.Values, valid []api.State) (controller string, m *Matcher, err error) {
	if err := CheckParams(v, ErrorsParams, "state"); err != nil {
		return "", nil, err
	}
	m, _, err = ParseFilter(v, valid)
	return v.Get("controller"), m, err
}

// ParseFilter reads and checks q, error and state.
func ParseFilter(v url.Values, valid []api.State) (*Matcher, api.Filter, error) {
	states, err := ParseStates(v["state"], valid)
	if err != nil {
		return nil, api.Filter{}, err
	}
	f := api.Filter{Q: v.Get("q"), Error: v.Get("error"), States: states}
	m, err := NewMatcher(f, valid)
	return m, f, err
}
