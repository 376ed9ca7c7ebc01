package instrument

import (
	"errors"
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
		"limit=+5", "limit=0x10", "limit=99999999999999999999", "state=,,", "q=" + strings.Repeat("a", maxQueryLen+1),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseKeyQuery(v)
		if err != nil {
			pe, ok := errors.AsType[*apiError](err)
			if !ok || pe.kind != kindInvalid || pe.param == "" {
				t.Fatalf("parseKeyQuery(%q) error %T %v, want an invalid-parameter *apiError", raw, err, err)
			}
			if _, known := v[pe.param]; !known {
				t.Errorf("parseKeyQuery(%q): error names %q, which is not in the query", raw, pe.param)
			}
			return
		}
		if q.limit < 1 || q.limit > api.MaxLimit {
			t.Errorf("parseKeyQuery(%q): limit %d out of [1, %d]", raw, q.limit, api.MaxLimit)
		}
		if q.offset < 0 || q.offset > maxOffset {
			t.Errorf("parseKeyQuery(%q): offset %d out of [0, %d]", raw, q.offset, maxOffset)
		}
		if !slices.Contains(api.Sorts, q.sort) {
			t.Errorf("parseKeyQuery(%q): sort %q is not an order", raw, q.sort)
		}
		for s := range q.filter.states {
			if !slices.Contains(api.States, s) {
				t.Errorf("parseKeyQuery(%q): state %q is not a verdict", raw, s)
			}
		}
		for _, p := range []pattern{q.filter.q, q.filter.err} {
			if len(p.q) > maxQueryLen {
				t.Errorf("parseKeyQuery(%q): %s of %d bytes passed the %d bound", raw, p.param, len(p.q), maxQueryLen)
			}
		}
		// A parsed filter matches without panicking.
		q.filter.match("default/w", "connection refused", api.StateBackoff)
	})
}

func TestParseKeyQueryDefaults(t *testing.T) {
	q, err := parseKeyQuery(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	if q.limit != api.DefaultLimit || q.offset != 0 || q.sort != api.SortNext || q.controller != "" {
		t.Errorf("defaults = limit %d, offset %d, sort %q, controller %q; want %d, 0, %q, \"\"",
			q.limit, q.offset, q.sort, q.controller, api.DefaultLimit, api.SortNext)
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
		q, err := parseKeyQuery(v)
		if err != nil {
			t.Fatalf("%s: %v", tt.raw, err)
		}
		if got := q.filter.match(tt.key, tt.lastErr, tt.st); got != tt.want {
			t.Errorf("%s: match(%q, %q, %s) = %v, want %v", tt.raw, tt.key, tt.lastErr, tt.st, got, tt.want)
		}
	}
}

func TestContainsFold(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
	}{
		{"", "", true},
		{"abc", "", true},
		{"", "a", false},
		{"Connection Refused", "refused", true},
		{"CONNECTION REFUSED", "connection refused", true},
		{"connection refused", "refused", true},
		{"refuse", "refused", false},
		{"ab", "abc", false},
		{"xxAbC", "abc", true},
		{"AbCxx", "abc", true},
		{"a-b", "a_b", false},
		{"@[`{", "@[`{", true}, // the bytes around 'A'..'Z' and 'a'..'z' do not fold
		{"@", "`", false},
		{"[", "{", false},
		{"ÉTÉ", "été", false}, // ASCII folding only
		{"ünïcode Key", "key", true},
		{"kube-system/CoreDNS", "coredns", true},
	}
	for _, tt := range tests {
		if got := containsFold(tt.s, tt.sub); got != tt.want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", tt.s, tt.sub, got, tt.want)
		}
		if tt.want && !strings.Contains(strings.ToLower(tt.s), tt.sub) {
			t.Errorf("table error: %q does not contain %q when lowered", tt.s, tt.sub)
		}
	}
	if n := testing.AllocsPerRun(100, func() { containsFold("kube-system/CoreDNS-12345", "dns-1") }); n != 0 {
		t.Errorf("containsFold allocates %v times per call, want 0", n)
	}
}
