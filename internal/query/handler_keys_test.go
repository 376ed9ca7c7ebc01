package query

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestHandlerKeysSort(t *testing.T) {
	h := newTestHandler(fixtureKeys(), Options{})
	// Every key sorts after its predecessor by these rules.
	byTime := func(field string) func(t *testing.T, a, b map[string]any) bool {
		return func(t *testing.T, a, b map[string]any) bool {
			ta, okA := optTime(t, a, field)
			tb, okB := optTime(t, b, field)
			switch {
			case okA && okB:
				return !tb.Before(ta)
			case okA:
				return true // keys without one come last
			}
			return !okB
		}
	}
	tests := []struct {
		sort    string
		inOrder func(t *testing.T, a, b map[string]any) bool
	}{
		{"next", byTime("nextRetryAt")},
		{"", byTime("nextRetryAt")}, // the default
		{"since", byTime("firstFailureAt")},
		{"failures", func(_ *testing.T, a, b map[string]any) bool {
			return a["failures"].(float64) >= b["failures"].(float64)
		}},
		{"key", func(_ *testing.T, a, b map[string]any) bool {
			return cmp.Or(cmp.Compare(a["controller"].(string), b["controller"].(string)),
				cmp.Compare(a["key"].(string), b["key"].(string))) < 0
		}},
	}
	all := namesOf(itemsOf(t, getOK(t, h, "v1/keys?sort=key")))
	for _, tt := range tests {
		items := itemsOf(t, getOK(t, h, "v1/keys?sort="+tt.sort))
		if got := namesOf(items); !slices.Equal(slices.Sorted(slices.Values(got)), all) {
			t.Errorf("sort=%s: keys %v, want all of %v", tt.sort, got, all)
		}
		for i := 1; i < len(items); i++ {
			if !tt.inOrder(t, items[i-1], items[i]) {
				t.Errorf("sort=%s: %v before %v is out of order", tt.sort, items[i-1], items[i])
			}
		}
	}
	// The orders differ on this fixture, so a sort that is ignored fails above.
	next := namesOf(itemsOf(t, getOK(t, h, "v1/keys?sort=next")))
	if first, want := next[0], "beta:other/b1"; first != want {
		t.Errorf("sort=next: first = %s, want %s (the soonest retry)", first, want)
	}
	failures := namesOf(itemsOf(t, getOK(t, h, "v1/keys?sort=failures")))
	if first, want := failures[0], "alpha:default/a1"; first != want {
		t.Errorf("sort=failures: first = %s, want %s (3 failures)", first, want)
	}
}

func TestHandlerKeysPaging(t *testing.T) {
	const n = 1234
	h := newTestHandler(manyKeys(n, "ns/k%04d"), Options{})
	full := itemsOf(t, getOK(t, h, "v1/keys?sort=key&limit=1000"))
	if len(full) != api.MaxLimit {
		t.Fatalf("limit=%d returned %d items", api.MaxLimit, len(full))
	}
	def := getOK(t, h, "v1/keys?sort=key")
	if got := len(itemsOf(t, def)); got != api.DefaultLimit {
		t.Errorf("default page has %d items, want %d", got, api.DefaultLimit)
	}
	if def["total"] != float64(n) || def["matched"] != float64(n) {
		t.Errorf("total, matched = %v, %v, want %d, %d", def["total"], def["matched"], n, n)
	}
	var paged []string
	for off := 0; off < n; off += 300 {
		items := itemsOf(t, getOK(t, h, fmt.Sprintf("v1/keys?sort=key&limit=300&offset=%d", off)))
		if want := min(300, n-off); len(items) != want {
			t.Errorf("offset=%d: %d items, want %d", off, len(items), want)
		}
		paged = append(paged, namesOf(items)...)
	}
	if want := namesOf(full); !slices.Equal(paged[:len(want)], want) {
		t.Errorf("pages do not concatenate to the full listing")
	}
	if !slices.IsSorted(paged) || len(slices.Compact(slices.Clone(paged))) != n {
		t.Errorf("pages are not %d distinct keys in order", n)
	}
	if items := itemsOf(t, getOK(t, h, fmt.Sprintf("v1/keys?offset=%d", n))); len(items) != 0 {
		t.Errorf("offset past the end: %d items, want none", len(items))
	}
}

// TestHandlerBadInputs: a bad parameter of a read is refused, naming it.
// (A bad forget body is the instrument's: its forgetter reads the body.)
func TestHandlerBadInputs(t *testing.T) {
	h := newTestHandler(fixtureKeys(), Options{})
	tests := []struct {
		path  string
		param string // the message must name it
	}{
		{"v1/keys?limit=0", "limit"},
		{"v1/keys?limit=1001", "limit"},
		{"v1/keys?limit=abc", "limit"},
		{"v1/keys?offset=-1", "offset"},
		{"v1/keys?sort=bogus", "sort"},
		{"v1/keys?state=sleeping", "state"},
		{"v1/keys?state=backoff,sleeping", "state"},
		{"v1/keys?q=~%5B", "q"},
		{"v1/keys?q=" + strings.Repeat("x", MaxQueryLen+1), "q"},
		{"v1/keys?foo=1", "foo"},
		{"v1/keys?limit=1&limit=2", "limit"},
		{"v1/controllers?foo=1", "foo"},
		{"v1/key?controller=alpha", "key"},
		{"v1/key?controller=alpha&key=a&key=b", "key"},
		{"v1/key?controller=alpha&key=default/a1&bar=1", "bar"},
	}
	for _, tt := range tests {
		code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+tt.path, "")
		checkError(t, "GET "+tt.path, code, m, http.StatusBadRequest, "BadRequest", tt.param)
	}
}

// TestHandlerNotFoundAndMethods: an unknown controller, key or endpoint is
// 404 naming it; a wrong method 405 with Allow. (Forget's own 404s, of
// its controller and keys, are the instrument's forgetter's.)
func TestHandlerNotFoundAndMethods(t *testing.T) {
	h := newTestHandler(fixtureKeys(), Options{})
	tests := []struct {
		method, path, body string
		code               int
		reason, names      string
		allow              string
	}{
		{"GET", "v1/keys?controller=zeta", "", 404, "NotFound", `"zeta"`, ""},
		{"GET", "v1/key?controller=zeta&key=default/a1", "", 404, "NotFound", `"zeta"`, ""},
		{"GET", "v1/key?controller=alpha&key=default/nope", "", 404, "NotFound", `"default/nope"`, ""},
		{"GET", "v2/keys", "", 404, "NotFound", "v2/keys", ""},
		{"POST", "v1/keys", "", 405, "MethodNotAllowed", "POST", "GET"},
		{"DELETE", "v1/controllers", "", 405, "MethodNotAllowed", "DELETE", "GET"},
		{"GET", "v1/forget", "", 405, "MethodNotAllowed", "GET", "POST"},
		{"PUT", "v1/forget", `{}`, 405, "MethodNotAllowed", "PUT", "POST"},
	}
	for _, tt := range tests {
		code, hdr, m := serve(t, h, tt.method, api.DefaultPrefix+tt.path, tt.body)
		name := tt.method + " " + tt.path
		checkError(t, name, code, m, tt.code, tt.reason, tt.names)
		if got := hdr.Get("Allow"); got != tt.allow {
			t.Errorf("%s: Allow = %q, want %q", name, got, tt.allow)
		}
	}
}
