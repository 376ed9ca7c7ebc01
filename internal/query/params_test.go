package query

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// FuzzParseKeyQuery: any query string either fails with an *apiError naming
// a parameter, or parses into a query within bounds.
func FuzzParseKeyQuery(f *testing.F) {
	for _, seed := range []string{
		"", "limit=0", "limit=1001", "limit=abc", "offset=-1", "sort=bogus", "state=sleeping",
		"q=~%5B", "foo=1", "limit=1&limit=2", "state=backoff,failed&state=idle", "q=~^default/.*$",
		"controller=alpha&q=Refused&sort=since&limit=1000&offset=1000000", "offset=1000001",
		"limit=+5", "limit=0x10", "limit=99999999999999999999", "state=,,", "q=" + strings.Repeat("a", MaxQueryLen+1),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseKeys(v, api.States)
		if err != nil {
			pe, ok := errors.AsType[*Error](err)
			if !ok || pe.Status != http.StatusBadRequest || pe.Field == "" {
				t.Fatalf("ParseKeys(%q) error %T %v, want a 400 *Error naming its field", raw, err, err)
			}
			if _, nameless := v[""]; nameless && pe.Field == NamelessField {
				return // "=0": no name to give, the query as a whole is at fault
			}
			if _, known := v[pe.Field]; !known {
				t.Errorf("ParseKeys(%q): error names %q, which is not in the query", raw, pe.Field)
			}
			return
		}
		if q.Limit < 1 || q.Limit > api.MaxLimit {
			t.Errorf("ParseKeys(%q): limit %d out of [1, %d]", raw, q.Limit, api.MaxLimit)
		}
		if q.Offset < 0 || q.Offset > MaxOffset {
			t.Errorf("ParseKeys(%q): offset %d out of [0, %d]", raw, q.Offset, MaxOffset)
		}
		if !slices.Contains(api.Sorts, q.Sort) {
			t.Errorf("ParseKeys(%q): sort %q is not an order", raw, q.Sort)
		}
		for s := range q.Matcher.states {
			if !slices.Contains(api.States, s) {
				t.Errorf("ParseKeys(%q): state %q is not a verdict", raw, s)
			}
		}
		for _, p := range []pattern{q.Matcher.q, q.Matcher.err} {
			if len(p.q) > MaxQueryLen {
				t.Errorf("ParseKeys(%q): %s of %d bytes passed the %d bound", raw, p.param, len(p.q), MaxQueryLen)
			}
		}
		// A parsed filter matches without panicking.
		q.Matcher.Match("default/w", "connection refused", api.StateBackoff)
	})
}

func TestParseKeyQueryDefaults(t *testing.T) {
	q, err := ParseKeys(url.Values{}, api.States)
	if err != nil {
		t.Fatal(err)
	}
	if q.Limit != api.DefaultLimit || q.Offset != 0 || q.Sort != api.SortNext || q.Controller != "" {
		t.Errorf("defaults = limit %d, offset %d, sort %q, controller %q; want %d, 0, %q, \"\"",
			q.Limit, q.Offset, q.Sort, q.Controller, api.DefaultLimit, api.SortNext)
	}
	tests := []struct {
		raw     string
		key     string
		lastErr string
		st      api.State
		want    bool
	}{
		{"q=refused", "default/w", "connection Refused", api.StateBackoff, true},
		{"q=Refused", "default/w", "connection refused", api.StateBackoff, false},
		{"q=Refused", "default/w", "connection Refused", api.StateBackoff, true},
		{"q=DEFAULT", "default/w", "", api.StateIdle, false},
		{"q=default", "DEFAULT/w", "", api.StateIdle, true},
		{"q=~^default/", "default/w", "", api.StateIdle, true},
		{"q=~^w", "default/w", "w", api.StateIdle, true},
		{"q=~^w", "default/w", "", api.StateIdle, false},
		{"state=backoff,idle", "k", "", api.StateIdle, true},
		{"state=backoff&state=idle", "k", "", api.StateQueued, false},
		{"state=%20backoff%20", "k", "", api.StateBackoff, true},
		{"state=backoff&q=k", "k", "", api.StateIdle, false},
	}
	for _, tt := range tests {
		v, _ := url.ParseQuery(tt.raw)
		q, err := ParseKeys(v, api.States)
		if err != nil {
			t.Fatalf("%s: %v", tt.raw, err)
		}
		if got := q.Matcher.Match(tt.key, tt.lastErr, tt.st); got != tt.want {
			t.Errorf("%s: match(%q, %q, %s) = %v, want %v", tt.raw, tt.key, tt.lastErr, tt.st, got, tt.want)
		}
	}
}

// TestNamelessParameterNamesTheQuery: "=0" (the fuzz target's first crasher,
// kept under testdata/fuzz) is a 400 that names a field, as every 400 does:
// the query as a whole, since the parameter has no name to map to a flag.
func TestNamelessParameterNamesTheQuery(t *testing.T) {
	for _, raw := range []string{"=0", "limit=5&=x", "=", ";=1"} {
		_, err := ParseRaw(raw)
		if got := FieldOf(err); got != NamelessField {
			t.Errorf("ParseRaw(%q): %v, field %q; want %q", raw, err, got, NamelessField)
		}
		v, perr := url.ParseQuery(raw)
		if perr != nil {
			continue // net/url drops the pair; ParseRaw above is what the endpoint uses
		}
		if _, err := ParseKeys(v, api.States); FieldOf(err) != NamelessField {
			t.Errorf("ParseKeys(%q): %v, field %q; want %q", raw, err, FieldOf(err), NamelessField)
		}
	}
}
