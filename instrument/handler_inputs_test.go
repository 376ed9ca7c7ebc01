package instrument

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/utils/ptr"
)

// The engine's own tests (internal/query/handler_guard_test.go and
// handler_page_test.go) cover the guard, the URL bound and key handles over
// any source. These cover what is the instrument's: that forget takes
// application/json alone and forgets by handle (its forgetter reads the
// body), that HandlerOptions.AllowedHosts is passed on, and Server's
// http.Server.

// TestForgetContentType: a web page cannot forget with a form-typed or
// text/plain POST: the forgetter takes application/json alone.
func TestForgetContentType(t *testing.T) {
	e := htFixture(t)
	forget := `{"controller":"alpha","keys":["default/a1"],"dryRun":true}`
	tests := []struct{ contentType, wantMsg string }{
		{"application/json", ""},
		{"application/json; charset=utf-8", ""},
		{"", "application/json"},
		{"application/jsonp", "application/jsonp"},
		{"application/x-www-form-urlencoded", "form"},
		{"text/plain", "text/plain"},
	}
	for _, tt := range tests {
		code, _, m := e.doCT(http.MethodPost, "v1/forget", forget, tt.contentType)
		if tt.wantMsg == "" {
			if code != http.StatusOK {
				t.Errorf("forget %q: status = %d, want 200: %v", tt.contentType, code, m)
			}
			continue
		}
		htCheckError(t, "forget "+tt.contentType, code, m, http.StatusUnsupportedMediaType, "UnsupportedMediaType", tt.wantMsg)
	}
}

// TestHandlerAllowedHosts: HandlerOptions.AllowedHosts reaches the guard.
func TestHandlerAllowedHosts(t *testing.T) {
	e := htFixture(t)
	allowed := NewHandler(HandlerOptions{Registry: e.reg, AllowedHosts: []string{"ctrl-metrics.ops.svc"}})
	for _, tt := range []struct {
		host string
		want int
	}{{"ctrl-metrics.ops.svc:8443", 200}, {"ctrl-metrics.ops", 403}} {
		req := httptest.NewRequest(http.MethodGet, api.DefaultPrefix+"v1/controllers", nil)
		req.Host = tt.host
		rec := httptest.NewRecorder()
		allowed.ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("Host %s: status = %d, want %d: %s", tt.host, rec.Code, tt.want, rec.Body)
		}
	}
}

// TestServerLongURL: a URL past the bound gets the documented shape from
// Server's own http.Server, not net/http's plain-text 431.
func TestServerLongURL(t *testing.T) {
	srv := NewServer("127.0.0.1:0", NewHandler(HandlerOptions{Registry: NewRegistry()}))
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Start: %v", err)
		}
	})
	url := "http://" + srv.Addr().String() + api.DefaultPrefix + "v1/keys?q=" + strings.Repeat("a", 100<<10)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body api.ErrorResponse
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("status %d: body is not the error shape: %v", resp.StatusCode, err)
	}
	if resp.StatusCode != http.StatusRequestURITooLong || body.Error.Code != resp.StatusCode ||
		body.Error.Reason != "RequestURITooLong" || !strings.Contains(body.Error.Message, "shorten") {
		t.Errorf("got %d %+v, want 414 RequestURITooLong saying to shorten it", resp.StatusCode, body.Error)
	}
}

// TestForgetByHandle: the handle v1/keys gives a key that is not valid
// UTF-8 forgets exactly that key.
func TestForgetByHandle(t *testing.T) {
	e := newHTEnv(t)
	p := NewTyped[string]("raw", TypedOptions[string]{Registry: e.reg, Clock: e.clk, UsePriorityQueue: ptr.To(true)})
	rl := p.RateLimiter(nil)
	const bad = "ns/caf\xe9"
	rl.When(bad)
	rl.When(bad)
	handle := base64.RawURLEncoding.EncodeToString([]byte(bad))
	if k := e.get("v1/key?controller=raw&handle=" + handle); k["handle"] != handle || k["failures"] != 2.0 {
		t.Errorf("v1/key by handle: handle, failures = %v, %v; want %s, 2", k["handle"], k["failures"], handle)
	}
	m := e.forget(`{"controller":"raw","handles":["` + handle + `"]}`)
	if m["count"] != 1.0 {
		t.Errorf("forget by handle: count = %v, want 1", m["count"])
	}
	if n := rl.NumRequeues(bad); n != 0 {
		t.Errorf("NumRequeues after forget = %d, want 0", n)
	}
	code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", `{"controller":"raw","handles":["!!"]}`)
	htCheckError(t, "forget a bad handle", code, m, http.StatusBadRequest, "BadRequest", "not a key handle")
}
