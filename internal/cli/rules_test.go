package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestSpreadRule: --spread and the endpoint apply one bound, api.MaxSpread:
// the CLI accepts the bound and refuses a second more, and so does the
// endpoint (a 400 naming spread; within it, the request goes on to the
// controller, unknown here: 404).
func TestSpreadRule(t *testing.T) {
	log := logr.Discard()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: instrument.NewRegistry(), Logger: &log})
	for _, tt := range []struct {
		spread time.Duration
		ok     bool
	}{{api.MaxSpread, true}, {api.MaxSpread + time.Second, false}, {0, true}} {
		o := &ForgetOptions{All: true, Requeue: true, Spread: tt.spread}
		err := o.Validate()
		if refused := err != nil && strings.HasPrefix(err.Error(), "--spread"); refused == tt.ok {
			t.Errorf("--spread %v: Validate() = %v, want accepted %v", tt.spread, err, tt.ok)
		}
		body := `{"controller":"c","keys":["a"],"requeue":true,"spread":"` + tt.spread.String() + `"}`
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+api.DefaultPrefix+"v1/forget", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if refused := w.Code == http.StatusBadRequest && strings.Contains(w.Body.String(), `"field": "spread"`); refused == tt.ok {
			t.Errorf("spread %v: the endpoint answers %d %s, want accepted %v", tt.spread, w.Code, w.Body, tt.ok)
		}
	}
}
