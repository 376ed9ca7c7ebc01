package instrument

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Issue #47 item 10: a forget whose client closed (or half-closed) its
// side before it was applied was applied and answered 200, while a read in
// the same state was a 500. It is not applied, and answered 499: a
// cancelled request changes nothing and is no server error.
func TestForgetOfAClosedRequestIsNotApplied(t *testing.T) {
	e, _, _ := htForgetEnv(t)
	before := e.get("v1/key?controller=alpha&key=default/s0")["failures"]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+api.DefaultPrefix+"v1/forget",
		strings.NewReader(`{"controller":"alpha","keys":["default/s0"]}`)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != 499 {
		t.Errorf("forget, its client gone: %d %s; want 499", rec.Code, rec.Body)
	}
	if after := e.get("v1/key?controller=alpha&key=default/s0")["failures"]; after != before {
		t.Errorf("failures %v → %v: the forget of a closed request was applied", before, after)
	}
}
