package instrument

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The engine's own tests (internal/query/handler_keys_test.go) cover
// v1/keys' sorts, paging and the parameters of reads over any source.
// These cover what is the instrument's: forget's body, its 404s and
// limits (its forgetter reads them), and what the decorators record.

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

// doCT posts body with the given Content-Type ("" for none).
func (e *htEnv) doCT(method, path, body, contentType string) (int, http.Header, map[string]any) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Content-Type")
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		e.h.ServeHTTP(w, r)
	})
	return e.do(h, method, api.DefaultPrefix+path, body)
}

// TestForgetBadInputs: a bad forget body is refused naming its field, and
// forgets nothing.
func TestForgetBadInputs(t *testing.T) {
	e := htFixture(t)
	tests := []struct{ body, param string }{
		{`{"controller":"alpha"}`, "keys"},
		{`{"controller":"alpha","keys":["default/a1"],"filter":{}}`, "filter"},
		{`{"controller":"alpha","keys":["default/a1"],"spread":"-1s"}`, "spread"},
		{`{"controller":"alpha","keys":["default/a1"],"spread":"2h"}`, "spread"},
		{`{"controller":"alpha","keys":[""]}`, "keys"},
		{`{"controller":"alpha","filter":{"state":["sleeping"]}}`, "state"},
		{`{"controller":"alpha","filter":{"q":"~("}}`, "q"},
		{`{"keys":["default/a1"]}`, "controller"},
		{`{"controller":"alpha","keys":["default/a1"],"bogus":1}`, "bogus"},
		{`{"controller":"alpha","keys":["default/a1"]}{}`, "more than one"},
		{`{"controller":`, "request body"},
	}
	for _, tt := range tests {
		code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", tt.body)
		htCheckError(t, "POST v1/forget "+tt.body, code, m, http.StatusBadRequest, "BadRequest", tt.param)
	}
	// Nothing was forgotten by the bad requests.
	if k := e.get("v1/key?controller=alpha&key=default/a1"); k["failures"] != 3.0 {
		t.Errorf("default/a1 failures = %v after bad requests, want 3", k["failures"])
	}
}

// TestForgetNotFound: a forget of an unknown controller or key is 404
// naming it, and a failed forget of several keys forgets none of them.
func TestForgetNotFound(t *testing.T) {
	e := htFixture(t)
	for _, tt := range []struct{ body, names string }{
		{`{"controller":"alpha","keys":["default/a1","default/nope"]}`, `"default/nope"`},
		{`{"controller":"zeta","keys":["default/a1"]}`, `"zeta"`},
	} {
		code, hdr, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", tt.body)
		htCheckError(t, "POST v1/forget "+tt.body, code, m, http.StatusNotFound, "NotFound", tt.names)
		if got := hdr.Get("Allow"); got != "" {
			t.Errorf("POST v1/forget %s: Allow = %q, want none", tt.body, got)
		}
	}
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
	// A page has no history: it says the failure was a Requeue, so a
	// table does not show FAILS 1 beside no error and no reason.
	items := e.get("v1/keys?controller=alpha")["items"].([]any)
	if got := items[0].(map[string]any)["requeued"]; got != true {
		t.Errorf("v1/keys: requeued = %v, want true", got)
	}
	hp.run("default/r", reconcile.Result{}, errors.New("boom"))
	items = e.get("v1/keys?controller=alpha")["items"].([]any)
	if got, ok := items[0].(map[string]any)["requeued"]; ok {
		t.Errorf("v1/keys after an error: requeued = %v, want it left out", got)
	}
}
