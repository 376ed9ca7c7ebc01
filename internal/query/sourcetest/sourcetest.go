package sourcetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Key is one key the source under test must hold: the controller that
// owns it, its name, how many consecutive failures it has had (at least
// one) and the message of its last error.
type Key struct {
	Controller string
	Key        string
	Failures   int
	Error      string
}

// Build makes a source that holds exactly keys (and no others), and
// returns its handler, serving v1 under api.DefaultPrefix. It may call
// t.Fatal; it is called once per subtest.
type Build func(t *testing.T, keys []Key) http.Handler

// Keys is the set the suite builds its sources with: n keys spread over
// two controllers, "alpha" and "beta", with 1 to 4 failures each and an
// error message that names the key.
func Keys(n int) []Key {
	keys := make([]Key, n)
	for i := range keys {
		ctrl := "alpha"
		if i%3 == 2 {
			ctrl = "beta"
		}
		name := fmt.Sprintf("ns/k%04d", i)
		keys[i] = Key{Controller: ctrl, Key: name, Failures: 1 + i%4, Error: "sync " + name + ": connection refused"}
	}
	return keys
}

// Run runs the suite against the sources build makes.
func Run(t *testing.T, build Build) {
	t.Run("ContinueWalksEveryKey", func(t *testing.T) { continueWalks(t, build) })
	t.Run("Controllers", func(t *testing.T) { controllers(t, build) })
	t.Run("KeyDetail", func(t *testing.T) { keyDetail(t, build) })
	t.Run("Filter", func(t *testing.T) { filter(t, build) })
	t.Run("Refusals", func(t *testing.T) { refusals(t, build) })
}

// get serves target ("v1/keys?…") through h and decodes the answer into
// out; it returns the status code and the error body for a 4xx.
func get(t *testing.T, h http.Handler, target string, out any) (int, api.ErrorBody) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+api.DefaultPrefix+target, nil))
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET %s: Content-Type %q, want application/json", target, ct)
	}
	if w.Code != http.StatusOK {
		var body api.ErrorResponse
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Errorf("GET %s: %d with a body that is not an error response: %v\n%s", target, w.Code, err, w.Body)
		}
		return w.Code, body.Error
	}
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		t.Fatalf("GET %s: %v\n%s", target, err, w.Body)
	}
	return w.Code, api.ErrorBody{}
}

// continueWalks: following continue tokens, at 100 a page, visits every
// key once and in the order one large page lists them, for every sort; and
// every page says how many keys matched in all.
func continueWalks(t *testing.T, build Build) {
	keys := Keys(250)
	h := build(t, keys)
	for _, sort := range api.Sorts {
		var whole api.KeyList
		if code, e := get(t, h, fmt.Sprintf("v1/keys?sort=%s&limit=%d", sort, api.MaxLimit), &whole); code != http.StatusOK {
			t.Fatalf("sort %s: %d %s", sort, code, e.Message)
		}
		want := names(whole.Items)
		if len(want) != len(keys) {
			t.Errorf("sort %s: one page of %d lists %d keys, want the %d built", sort, api.MaxLimit, len(want), len(keys))
		}
		var got []string
		tok := ""
		for pages := 0; ; pages++ {
			if pages > len(keys)/100+1 {
				t.Fatalf("sort %s: more than %d pages of 100", sort, pages)
			}
			target := "v1/keys?limit=100&sort=" + sort
			if tok != "" {
				target += "&continue=" + url.QueryEscape(tok)
			}
			var page api.KeyList
			if code, e := get(t, h, target, &page); code != http.StatusOK {
				t.Fatalf("sort %s, page %d: %d %s", sort, pages, code, e.Message)
			}
			if page.Matched != len(keys) {
				t.Errorf("sort %s, page %d: matched %d, want %d (all keys, not those after the token)", sort, pages, page.Matched, len(keys))
			}
			got = append(got, names(page.Items)...)
			if tok = page.Continue; tok == "" {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("sort %s: continued pages list %d keys, not the %d of one page in its order", sort, len(got), len(want))
		}
	}
}

// controllers: v1/controllers names every controller, sorted by name.
func controllers(t *testing.T, build Build) {
	h := build(t, Keys(9))
	var list api.ControllerList
	if code, e := get(t, h, "v1/controllers", &list); code != http.StatusOK {
		t.Fatalf("v1/controllers: %d %s", code, e.Message)
	}
	var got []string
	for _, c := range list.Controllers {
		got = append(got, c.Name)
	}
	if !slices.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("v1/controllers names %v, want [alpha beta]", got)
	}
}

// keyDetail: v1/key returns the key asked for with its failures and last
// error; a key no controller has is a 404.
func keyDetail(t *testing.T, build Build) {
	keys := Keys(6)
	h := build(t, keys)
	for _, k := range keys {
		var d api.KeyDetail
		target := "v1/key?controller=" + k.Controller + "&key=" + url.QueryEscape(k.Key)
		if code, e := get(t, h, target, &d); code != http.StatusOK {
			t.Errorf("GET %s: %d %s", target, code, e.Message)
			continue
		}
		if d.Key.Key != k.Key || d.Controller != k.Controller || d.Failures != k.Failures {
			t.Errorf("GET %s: %s/%s with %d failures, want %s/%s with %d", target, d.Controller, d.Key.Key, d.Failures, k.Controller, k.Key, k.Failures)
		}
		if d.LastError == nil || d.LastError.Message != k.Error {
			t.Errorf("GET %s: last error %+v, want %q", target, d.LastError, k.Error)
		}
	}
	if code, e := get(t, h, "v1/key?controller=alpha&key=ns/none", &api.KeyDetail{}); code != http.StatusNotFound || !strings.Contains(e.Message, "ns/none") {
		t.Errorf("GET v1/key of a key no controller has: %d %q, want 404 naming the key", code, e.Message)
	}
}

// filter: q keeps the keys whose name contains it; controller keeps one
// controller's keys.
func filter(t *testing.T, build Build) {
	keys := Keys(30)
	h := build(t, keys)
	var list api.KeyList
	if code, e := get(t, h, "v1/keys?sort=key&q=k001", &list); code != http.StatusOK {
		t.Fatalf("q=k001: %d %s", code, e.Message)
	}
	var want []string
	for _, k := range keys {
		if strings.Contains(k.Key, "k001") {
			want = append(want, k.Key)
		}
	}
	// sort=key orders by controller, then key: compare the sets.
	if got := names(list.Items); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("q=k001 lists %v, want %v", got, want)
	}
	if code, e := get(t, h, "v1/keys?sort=key&controller=beta", &list); code != http.StatusOK {
		t.Fatalf("controller=beta: %d %s", code, e.Message)
	}
	for _, k := range list.Items {
		if k.Controller != "beta" {
			t.Errorf("controller=beta lists %s of %s", k.Key, k.Controller)
		}
	}
	if n := len(list.Items); n != 10 {
		t.Errorf("controller=beta lists %d keys, want the 10 built", n)
	}
}

// refusals: a parameter an endpoint does not take, a bound passed and a
// continue token used wrongly are each a 400 that names the parameter.
func refusals(t *testing.T, build Build) {
	h := build(t, Keys(25))
	var first api.KeyList
	if code, e := get(t, h, "v1/keys?sort=key&limit=10", &first); code != http.StatusOK || first.Continue == "" {
		t.Fatalf("first page of 10 of 25: %d %s, continue %q", code, e.Message, first.Continue)
	}
	tok := url.QueryEscape(first.Continue)
	for target, field := range map[string]string{
		"v1/keys?bogus=1":                               "bogus",
		"v1/errors?limit=5":                             "limit",
		"v1/key?key=ns/k0001&sort=key":                  "sort",
		"v1/controllers?q=x":                            "q",
		"v1/keys?offset=1000001":                        "offset",
		fmt.Sprintf("v1/keys?limit=%d", api.MaxLimit+1): "limit",
		"v1/keys?sort=bogus":                            "sort",
		"v1/keys?sort=key&continue=bogus":               "continue",
		"v1/keys?sort=next&continue=" + tok:             "continue",
		"v1/keys?sort=key&q=k0&continue=" + tok:         "continue",
	} {
		if code, e := get(t, h, target, &api.KeyList{}); code != http.StatusBadRequest || e.Field != field {
			t.Errorf("GET %s: %d naming %q (%s); want a 400 naming %q", target, code, e.Field, e.Message, field)
		}
	}
}

func names(items []api.Key) []string {
	out := make([]string, len(items))
	for i, k := range items {
		out[i] = k.Key
	}
	return out
}
