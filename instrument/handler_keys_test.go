package instrument

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// htOptTime reads an optional time field: ok is false when it is omitted.
func htOptTime(t *testing.T, k map[string]any, field string) (time.Time, bool) {
	v, ok := k[field]
	if !ok {
		return time.Time{}, false
	}
	return htTime(t, v), true
}

func TestHandlerKeysSort(t *testing.T) {
	e := htFixture(t)
	// Every key sorts after its predecessor by these rules.
	byTime := func(field string) func(t *testing.T, a, b map[string]any) bool {
		return func(t *testing.T, a, b map[string]any) bool {
			ta, okA := htOptTime(t, a, field)
			tb, okB := htOptTime(t, b, field)
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
	all := htKeys(htItems(t, e.get("v1/keys?sort=key")))
	for _, tt := range tests {
		items := htItems(t, e.get("v1/keys?sort="+tt.sort))
		if got := htKeys(items); !slices.Equal(slices.Sorted(slices.Values(got)), all) {
			t.Errorf("sort=%s: keys %v, want all of %v", tt.sort, got, all)
		}
		for i := 1; i < len(items); i++ {
			if !tt.inOrder(t, items[i-1], items[i]) {
				t.Errorf("sort=%s: %v before %v is out of order", tt.sort, items[i-1], items[i])
			}
		}
	}
	// The orders differ on this fixture, so a sort that is ignored fails above.
	next := htKeys(htItems(t, e.get("v1/keys?sort=next")))
	if first, want := next[0], "beta:other/b1"; first != want {
		t.Errorf("sort=next: first = %s, want %s (the soonest retry)", first, want)
	}
	failures := htKeys(htItems(t, e.get("v1/keys?sort=failures")))
	if first, want := failures[0], "alpha:default/a1"; first != want {
		t.Errorf("sort=failures: first = %s, want %s (3 failures)", first, want)
	}
}

func TestHandlerKeysPaging(t *testing.T) {
	const n = 1234
	e := newHTEnv(t)
	hp := e.probe("gamma", true, nil)
	for i := range n {
		hp.rl.When(htReq(fmt.Sprintf("ns/k%04d", i)))
	}
	full := htItems(t, e.get("v1/keys?sort=key&limit=1000"))
	if len(full) != api.MaxLimit {
		t.Fatalf("limit=%d returned %d items", api.MaxLimit, len(full))
	}
	def := e.get("v1/keys?sort=key")
	if got := len(htItems(t, def)); got != api.DefaultLimit {
		t.Errorf("default page has %d items, want %d", got, api.DefaultLimit)
	}
	if def["total"] != float64(n) || def["matched"] != float64(n) {
		t.Errorf("total, matched = %v, %v, want %d, %d", def["total"], def["matched"], n, n)
	}
	var paged []string
	for off := 0; off < n; off += 300 {
		items := htItems(t, e.get(fmt.Sprintf("v1/keys?sort=key&limit=300&offset=%d", off)))
		if want := min(300, n-off); len(items) != want {
			t.Errorf("offset=%d: %d items, want %d", off, len(items), want)
		}
		paged = append(paged, htKeys(items)...)
	}
	if want := htKeys(full); !slices.Equal(paged[:len(want)], want) {
		t.Errorf("pages do not concatenate to the full listing")
	}
	if !slices.IsSorted(paged) || len(slices.Compact(slices.Clone(paged))) != n {
		t.Errorf("pages are not %d distinct keys in order", n)
	}
	if items := htItems(t, e.get(fmt.Sprintf("v1/keys?offset=%d", n))); len(items) != 0 {
		t.Errorf("offset past the end: %d items, want none", len(items))
	}
}

func TestHandlerBadInputs(t *testing.T) {
	e := htFixture(t)
	tests := []struct {
		method, path, body string
		param              string // the message must name it
	}{
		{"GET", "v1/keys?limit=0", "", "limit"},
		{"GET", "v1/keys?limit=1001", "", "limit"},
		{"GET", "v1/keys?limit=abc", "", "limit"},
		{"GET", "v1/keys?offset=-1", "", "offset"},
		{"GET", "v1/keys?sort=bogus", "", "sort"},
		{"GET", "v1/keys?state=sleeping", "", "state"},
		{"GET", "v1/keys?state=backoff,sleeping", "", "state"},
		{"GET", "v1/keys?q=~%5B", "", "q"},
		{"GET", "v1/keys?q=" + strings.Repeat("x", query.MaxQueryLen+1), "", "q"},
		{"GET", "v1/keys?foo=1", "", "foo"},
		{"GET", "v1/keys?limit=1&limit=2", "", "limit"},
		{"GET", "v1/controllers?foo=1", "", "foo"},
		{"GET", "v1/key?controller=alpha", "", "key"},
		{"GET", "v1/key?controller=alpha&key=a&key=b", "", "key"},
		{"GET", "v1/key?controller=alpha&key=default/a1&bar=1", "", "bar"},
		{"POST", "v1/forget", `{"controller":"alpha"}`, "keys"},
		{"POST", "v1/forget", `{"controller":"alpha","keys":["default/a1"],"filter":{}}`, "filter"},
		{"POST", "v1/forget", `{"controller":"alpha","keys":["default/a1"],"spread":"-1s"}`, "spread"},
		{"POST", "v1/forget", `{"controller":"alpha","keys":["default/a1"],"spread":"2h"}`, "spread"},
		{"POST", "v1/forget", `{"controller":"alpha","keys":[""]}`, "keys"},
		{"POST", "v1/forget", `{"controller":"alpha","filter":{"state":["sleeping"]}}`, "state"},
		{"POST", "v1/forget", `{"controller":"alpha","filter":{"q":"~("}}`, "q"},
		{"POST", "v1/forget", `{"keys":["default/a1"]}`, "controller"},
		{"POST", "v1/forget", `{"controller":"alpha","keys":["default/a1"],"bogus":1}`, "bogus"},
		{"POST", "v1/forget", `{"controller":"alpha","keys":["default/a1"]}{}`, "more than one"},
		{"POST", "v1/forget", `{"controller":`, "request body"},
	}
	for _, tt := range tests {
		code, _, m := e.do(e.h, tt.method, api.DefaultPrefix+tt.path, tt.body)
		name := tt.method + " " + tt.path + " " + tt.body
		htCheckError(t, name, code, m, http.StatusBadRequest, "BadRequest", tt.param)
	}
	// Nothing was forgotten by the bad requests.
	if k := e.get("v1/key?controller=alpha&key=default/a1"); k["failures"] != 3.0 {
		t.Errorf("default/a1 failures = %v after bad requests, want 3", k["failures"])
	}
}

// htCheckError checks the one error shape: status, reason, code in the body,
// and a message naming what is at fault.
func htCheckError(t *testing.T, name string, code int, m map[string]any, wantCode int, wantReason, names string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: status = %d, want %d: %v", name, code, wantCode, m)
		return
	}
	if got, _ := htField(m, "error.code"); got != float64(wantCode) {
		t.Errorf("%s: error.code = %v, want %d", name, got, wantCode)
	}
	if got, _ := htField(m, "error.reason"); got != wantReason {
		t.Errorf("%s: error.reason = %v, want %s", name, got, wantReason)
	}
	msg, _ := htField(m, "error.message")
	if s, _ := msg.(string); !strings.Contains(s, names) {
		t.Errorf("%s: error.message = %q, want it to name %q", name, msg, names)
	}
}

func TestHandlerNotFoundAndMethods(t *testing.T) {
	e := htFixture(t)
	tests := []struct {
		method, path, body string
		code               int
		reason, names      string
		allow              string
	}{
		{"GET", "v1/keys?controller=zeta", "", 404, "NotFound", `"zeta"`, ""},
		{"GET", "v1/key?controller=zeta&key=default/a1", "", 404, "NotFound", `"zeta"`, ""},
		{"GET", "v1/key?controller=alpha&key=default/nope", "", 404, "NotFound", `"default/nope"`, ""},
		{"POST", "v1/forget", `{"controller":"alpha","keys":["default/a1","default/nope"]}`, 404, "NotFound", `"default/nope"`, ""},
		{"POST", "v1/forget", `{"controller":"zeta","keys":["default/a1"]}`, 404, "NotFound", `"zeta"`, ""},
		{"GET", "v2/keys", "", 404, "NotFound", "v2/keys", ""},
		{"POST", "v1/keys", "", 405, "MethodNotAllowed", "POST", "GET"},
		{"DELETE", "v1/controllers", "", 405, "MethodNotAllowed", "DELETE", "GET"},
		{"GET", "v1/forget", "", 405, "MethodNotAllowed", "GET", "POST"},
		{"PUT", "v1/forget", `{}`, 405, "MethodNotAllowed", "PUT", "POST"},
	}
	for _, tt := range tests {
		code, hdr, m := e.do(e.h, tt.method, api.DefaultPrefix+tt.path, tt.body)
		name := tt.method + " " + tt.path
		htCheckError(t, name, code, m, tt.code, tt.reason, tt.names)
		if got := hdr.Get("Allow"); got != tt.allow {
			t.Errorf("%s: Allow = %q, want %q", name, got, tt.allow)
		}
	}
	// A failed forget of several keys forgets none of them.
	if k := e.get("v1/key?controller=alpha&key=default/a1"); k["failures"] != 3.0 {
		t.Errorf("default/a1 failures = %v, want 3", k["failures"])
	}
}

func TestHandlerBodyLimits(t *testing.T) {
	e := htFixture(t)
	big := `{"controller":"alpha","keys":["` + strings.Repeat("a", maxBodyBytes) + `"]}`
	code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", big)
	htCheckError(t, "1 MiB body", code, m, http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "bytes")

	req := `{"controller":"alpha","keys":["default/a1"]}`
	code, _, m = e.doCT(http.MethodPost, "v1/forget", req, "text/plain")
	htCheckError(t, "text/plain body", code, m, http.StatusUnsupportedMediaType, "UnsupportedMediaType", "text/plain")
}

// doCT posts body with the given Content-Type.
func (e *htEnv) doCT(method, path, body, contentType string) (int, http.Header, map[string]any) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Set("Content-Type", contentType)
		e.h.ServeHTTP(w, r)
	})
	return e.do(h, method, api.DefaultPrefix+path, body)
}

// TestHandlerRecordsRequeue covers the deprecated Requeue result: a
// rate-limited retry without an error.
func TestHandlerRecordsRequeue(t *testing.T) {
	e := newHTEnv(t)
	hp := e.probe("alpha", true, NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))
	hp.run("default/r", reconcile.Result{Requeue: true}, nil) //nolint:staticcheck // still honoured
	k := e.get("v1/key?controller=alpha&key=default/r")
	if k["state"] != string(api.StateBackoff) || k["failures"] != 1.0 {
		t.Errorf("state, failures = %v, %v, want backoff, 1", k["state"], k["failures"])
	}
	if _, ok := k["lastError"]; ok {
		t.Errorf("lastError = %v, want none for a Requeue", k["lastError"])
	}
	hist := k["history"].([]any)
	if got := hist[len(hist)-1].(map[string]any)["outcome"]; got != api.OutcomeRequeue {
		t.Errorf("last outcome = %v, want %s", got, api.OutcomeRequeue)
	}
}
