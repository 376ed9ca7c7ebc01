package query

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHandlerKeysContinue pages through every key with continue tokens, in
// each sort order: each key once, in order, whatever the depth; a token
// used with other parameters is refused.
func TestHandlerKeysContinue(t *testing.T) {
	const n = 1234
	src := &keysSource{at: ms(n)}
	for i := range n {
		if i%4 == 0 {
			continue // never failed: not tracked
		}
		src.keys = append(src.keys, api.Key{Controller: "gamma", Key: fmt.Sprintf("ns/k%04d", i), State: api.StateBackoff,
			Failures: i % 4, FirstFailureAt: ms(i), NextRetryAt: ms(i + 5<<(i%4-1))})
	}
	h := newTestHandler(src, Options{})
	tracked := n - (n+3)/4 // keys with i%4 == 0 never failed
	for _, sort := range api.Sorts {
		t.Run(sort, func(t *testing.T) {
			var want []string
			for off := 0; off < n; off += api.MaxLimit {
				want = append(want, namesOf(itemsOf(t, getOK(t, h, fmt.Sprintf("v1/keys?sort=%s&limit=%d&offset=%d", sort, api.MaxLimit, off))))...)
			}
			var got []string
			tok := ""
			for pages := 0; ; pages++ {
				if pages > n/100+1 {
					t.Fatalf("more than %d pages of 100", pages)
				}
				target := "v1/keys?limit=100&sort=" + sort
				if tok != "" {
					target += "&continue=" + url.QueryEscape(tok)
				}
				m := getOK(t, h, target)
				if m["matched"] != float64(tracked) {
					t.Errorf("page %d: matched = %v, want %d (all keys, not those after the token)", pages, m["matched"], tracked)
				}
				got = append(got, namesOf(itemsOf(t, m))...)
				next, _ := m["continue"].(string)
				if next == "" {
					break
				}
				tok = next
			}
			if len(want) != tracked || !slices.Equal(got, want) {
				t.Errorf("continued pages (%d keys) differ from offset pages (%d keys)", len(got), len(want))
			}
		})
	}

	// The way forward past the window, and tokens used wrongly.
	first := getOK(t, h, "v1/keys?sort=key&limit=10")
	tok := first["continue"].(string)
	tests := []struct{ target, wantMsg string }{
		{"v1/keys?sort=next&continue=" + url.QueryEscape(tok), "sort=key"},
		{"v1/keys?sort=key&q=k0&continue=" + url.QueryEscape(tok), "parameters of the first page"},
		{"v1/keys?sort=key&continue=bogus", "not a continue token"},
		{"v1/keys?sort=key&continue=" + base64.RawURLEncoding.EncodeToString([]byte{1, 2, 0, 0, 0, 0, 0xff}), "not a continue token"},
	}
	for _, tt := range tests {
		code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+tt.target, "")
		checkError(t, tt.target, code, m, http.StatusBadRequest, "BadRequest", tt.wantMsg)
	}
}

// TestHandlerKeysWindow: a page is selected among the first or the last
// MaxWindow keys; one in between is refused with the way forward.
func TestHandlerKeysWindow(t *testing.T) {
	const n = 2*api.MaxWindow + 100
	h := newTestHandler(manyKeys(n, "ns/k%05d"), Options{})
	key := func(i int) string { return fmt.Sprintf("gamma:ns/k%05d", i) }
	tests := []struct {
		offset, limit int
		first, count  int // want keys first..first+count-1
	}{
		{0, 1000, 0, 1000},
		{api.MaxWindow - 1000, 1000, api.MaxWindow - 1000, 1000},
		{n - 1000, 1000, n - 1000, 1000}, // the last page
		{n - 10, 100, n - 10, 10},
		{n - api.MaxWindow, 100, n - api.MaxWindow, 100}, // the first of the last window
		{n, 100, 0, 0},
	}
	for _, tt := range tests {
		got := namesOf(itemsOf(t, getOK(t, h, fmt.Sprintf("v1/keys?sort=key&offset=%d&limit=%d", tt.offset, tt.limit))))
		if len(got) != tt.count || (tt.count > 0 && (got[0] != key(tt.first) || got[len(got)-1] != key(tt.first+tt.count-1))) {
			t.Errorf("offset %d limit %d: %d keys %v..., want %d from %s", tt.offset, tt.limit, len(got), got[:min(len(got), 1)], tt.count, key(tt.first))
		}
	}
	middle := fmt.Sprintf("v1/keys?sort=key&offset=%d&limit=100", n-api.MaxWindow-1)
	code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+middle, "")
	if code != http.StatusBadRequest {
		t.Fatalf("%s: status = %d, want 400", middle, code)
	}
	checkError(t, middle, code, m, http.StatusBadRequest, "BadRequest", "continue token")
}

// TestHandlerFilterBounds: a regular expression is bounded by its compiled
// program, not its length; a case-insensitive substring by its length.
func TestHandlerFilterBounds(t *testing.T) {
	h := newTestHandler(fixtureKeys(), Options{})
	tests := []struct {
		q       string
		wantMsg string // empty: accepted
	}{
		{"~.{0,1000}.{0,1000}.{0,1000}#", "instructions"},
		{"~(.*){16}#", "branch points"},
		{"~" + strings.Repeat("(a?)", 20), "branch points"},
		{"~" + strings.Repeat("x", 1000), ""}, // long but literal: cheap
		{"~^dial tcp .*: connect: connection refused$", ""},
		{strings.Repeat("a", MaxFoldQuery+1), "case-insensitive"},
		{strings.Repeat("A", MaxFoldQuery+1), ""}, // exact case: strings.Contains
	}
	for _, tt := range tests {
		target := api.DefaultPrefix + "v1/keys?q=" + url.QueryEscape(tt.q)
		code, _, m := serve(t, h, http.MethodGet, target, "")
		if tt.wantMsg == "" {
			if code != http.StatusOK {
				t.Errorf("q=%.40s: status = %d, want 200: %v", tt.q, code, m)
			}
			continue
		}
		checkError(t, "q="+tt.q[:min(len(tt.q), 40)], code, m, http.StatusBadRequest, "BadRequest", tt.wantMsg)
	}
}

// TestHandlerKeyHandle: a key that is not valid UTF-8 is listed with a
// handle that reads exactly that key. (That it forgets exactly that key
// is the instrument's: its forgetter reads handles.)
func TestHandlerKeyHandle(t *testing.T) {
	const bad, good = "ns/caf\xe9", "ns/ok"
	src := &keysSource{at: ms(0), keys: []api.Key{
		{Controller: "raw", Key: bad, State: api.StateBackoff, Failures: 2},
		{Controller: "raw", Key: good, State: api.StateBackoff, Failures: 1},
	}}
	h := newTestHandler(src, Options{})

	items := itemsOf(t, getOK(t, h, "v1/keys?sort=key"))
	var handle string
	for _, it := range items {
		switch it["key"] {
		case good:
			if _, ok := it["handle"]; ok {
				t.Errorf("valid key %q has a handle", good)
			}
		case "ns/caf\ufffd":
			handle, _ = it["handle"].(string)
		}
	}
	if raw, err := base64.RawURLEncoding.DecodeString(handle); err != nil || string(raw) != bad {
		t.Fatalf("handle %q decodes to %q, %v; want the key's bytes %q", handle, raw, err, bad)
	}
	k := getOK(t, h, "v1/key?controller=raw&handle="+handle)
	if k["handle"] != handle || k["failures"] != 2.0 {
		t.Errorf("v1/key by handle: handle, failures = %v, %v; want %s, 2", k["handle"], k["failures"], handle)
	}
	for _, tt := range []struct{ target, wantMsg string }{
		{"v1/key?controller=raw&handle=%21%21", "not a key handle"},
		{"v1/key?controller=raw&handle=" + handle + "&key=x", "not both"},
	} {
		code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+tt.target, "")
		checkError(t, tt.target, code, m, http.StatusBadRequest, "BadRequest", tt.wantMsg)
	}
}
