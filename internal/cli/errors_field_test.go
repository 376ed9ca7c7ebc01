package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// TestEvery400NamesItsFlag walks every 400 the endpoint can give (each
// site that refuses a parameter or a body field, in instrument and the query
// engine) and checks that the answer carries field, and that the CLI turns
// it into the flag that sets that field — from field, never the message.
func TestEvery400NamesItsFlag(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log})
	for _, name := range []string{"a", "b"} { // key k in two controllers: v1/key?key=k must name one
		p := instrument.NewTyped(name, instrument.TypedOptions[string]{Registry: reg})
		p.RateLimiter(instrument.NewExponentialLimiter[string](time.Second, time.Minute)).When("k")
	}
	longQ := strings.Repeat("a", query.MaxQueryLen+1)
	tok := (&query.Cursor{Sort: api.SortKey, Key: "k", Scope: query.ScopeOf("", api.Filter{})}).Encode()
	keys := func(q string) string { return "GET v1/keys?" + q }
	tests := []struct {
		req, body, field string
	}{
		{keys("q=%zz"), "", "q"},
		{keys("q=a;b"), "", "q"},
		{keys("sort=key&sort=next"), "", "sort"},
		{keys("q=" + longQ), "", "q"},
		{keys("q=" + url.QueryEscape("~(")), "", "q"},
		{keys("q=" + url.QueryEscape("~.{0,1000}.{0,1000}.{0,1000}#")), "", "q"},
		{keys("q=" + url.QueryEscape("~(.*){16}#")), "", "q"},
		{keys("q=" + strings.Repeat("a", query.MaxFoldQuery+1)), "", "q"},
		{keys("error=" + url.QueryEscape("~(")), "", "error"},
		{keys("error=" + longQ), "", "error"},
		{keys("state=sleeping"), "", "state"},
		{keys("state=unknown"), "", "state"}, // a log's state, not a controller's
		{keys("sort=bogus"), "", "sort"},
		{keys("limit=abc"), "", "limit"},
		{keys("limit=0"), "", "limit"},
		{keys("offset=-1"), "", "offset"},
		{keys(fmt.Sprintf("offset=%d", query.MaxOffset+1)), "", "offset"},
		{keys("continue=nonsense"), "", "continue"},
		{keys("sort=next&continue=" + tok), "", "continue"},
		{keys("q=x&sort=key&continue=" + tok), "", "continue"},
		{"GET v1/errors?state=sleeping", "", "state"},
		{"GET v1/errors?q=" + url.QueryEscape("~("), "", "q"},
		{"GET v1/errors?sort=key", "", "sort"}, // v1/errors takes no sort: unknown there
		{"GET v1/controllers?limit=1", "", "limit"},
		{"GET v1/key?key=k&handle=aw", "", "handle"},
		{"GET v1/key?handle=" + url.QueryEscape("!"), "", "handle"},
		{"GET v1/key", "", "key"},
		{"GET v1/key?key=k", "", "controller"},
		{"POST v1/forget", `{`, "body"},
		{"POST v1/forget", `{"controller":"c","keys":["a"]} {}`, "body"},
		{"POST v1/forget", `{"controller":"c","keys":"a"}`, "keys"},
		{"POST v1/forget", `{"controller":"c","bogus":1}`, "body"},
		{"POST v1/forget", `{"controller":"c","handles":["!"]}`, "handles"},
		{"POST v1/forget", `{"controller":"c"}`, "keys"},
		{"POST v1/forget", `{"controller":"c","keys":["a"],"filter":{}}`, "filter"},
		{"POST v1/forget", `{"controller":"c","keys":["` + strings.Repeat(`a","`, 10_001) + `a"]}`, "keys"},
		{"POST v1/forget", `{"controller":"c","keys":["a"],"spread":"2h"}`, "spread"},
		{"POST v1/forget", `{"controller":"c","keys":["a"],"reason":"` + strings.Repeat("r", api.MaxReasonBytes+1) + `"}`, "reason"},
		{"POST v1/forget", `{"controller":"c","keys":["a"],"reason":"a\u0007b"}`, "reason"},
		{"POST v1/forget", `{"controller":"c","keys":["a"],"user":"` + strings.Repeat("u", api.MaxUserBytes+1) + `"}`, "user"},
		{"POST v1/forget", `{"controller":"c","keys":[""]}`, "keys"},
	}
	o := &attachOptions{}
	for _, tt := range tests {
		method, path, _ := strings.Cut(tt.req, " ")
		r := httptest.NewRequest(method, "http://127.0.0.1"+api.DefaultPrefix+path, strings.NewReader(tt.body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var body api.ErrorResponse
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusBadRequest {
			t.Errorf("%.60s: status %d, body %.200s; want a 400", tt.req, w.Code, w.Body)
			continue
		}
		if body.Error.Field != tt.field {
			t.Errorf("%.60s: field %q, want %q (%s)", tt.req, body.Error.Field, tt.field, body.Error.Message)
			continue
		}
		ae := &inspector.APIError{Code: body.Error.Code, Reason: body.Error.Reason, Field: body.Error.Field, Message: body.Error.Message}
		got := o.explainError(ae).Error()
		flag, ok := paramFlags[tt.field]
		switch {
		case ok && !strings.HasPrefix(got, flag+": "):
			t.Errorf("%.60s: the CLI says %q, want it to begin with %q", tt.req, got, flag+": ")
		case ok && strings.Contains(got, fmt.Sprintf("parameter %q", tt.field)):
			t.Errorf("%.60s: the CLI says %q: the flag should replace the parameter's name", tt.req, got)
		case !ok && !strings.Contains(got, fmt.Sprintf("%q", tt.field)):
			t.Errorf("%.60s: no flag for %q and the CLI's %q does not name it", tt.req, tt.field, got)
		}
	}
}

// TestBusySaysTheFlags: a 429 still refused after the client's retries is
// the server's words (the query's parameters, for any client) with the
// flags that set them.
func TestBusySaysTheFlags(t *testing.T) {
	ae := &inspector.APIError{Code: http.StatusTooManyRequests, Reason: "TooManyRequests", Method: "GET", Path: api.DefaultPrefix + "v1/keys",
		Message: "reads limited to a fifth of a core while the controller is busy; retry in 1 s (narrow the query by its controller, state or q parameter to make each read cheaper)"}
	got := (&attachOptions{}).explainError(ae)
	if !errors.Is(got, error(ae)) {
		t.Errorf("%v: want the APIError kept", got)
	}
	for _, want := range []string{"controller, state or q parameter", "--controller", "--state", "-q/--filter"} {
		if !strings.Contains(got.Error(), want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
}
