package query

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// serveReq serves one request built by the caller and decodes the answer.
func serveReq(t *testing.T, h http.Handler, req *http.Request) (int, http.Header, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("%s %s: Content-Type = %q, want application/json", req.Method, req.URL, got)
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v\n%s", req.Method, req.URL, err, rec.Body)
	}
	return rec.Code, rec.Header(), m
}

// TestHandlerGuard: a web page can neither forget cross-site nor read
// through a rebound hostname or cross-site. The guard runs before
// Options.Forget, which is not called for a refused request. (That forget
// takes application/json alone is the instrument forgetter's check.)
func TestHandlerGuard(t *testing.T) {
	forgets := 0
	h := newTestHandler(fixtureKeys(), Options{Forget: func(w http.ResponseWriter, r *http.Request) (bool, error) {
		forgets++
		ServeJSON(w, r, http.StatusOK, api.ForgetResponse{Controller: "alpha", DryRun: true})
		return false, nil
	}})
	forget := `{"controller":"alpha","keys":["default/a1"],"dryRun":true}`
	tests := []struct {
		name        string
		method      string
		host        string
		origin      string
		contentType string
		wantCode    int
		wantReason  string
		wantMsg     string
	}{
		{"loopback", http.MethodGet, "127.0.0.1:8082", "", "", 200, "", ""},
		{"localhost", http.MethodGet, "localhost:8082", "", "", 200, "", ""},
		{"IPv6 loopback", http.MethodGet, "[::1]:8082", "", "", 200, "", ""},
		{"rebound name", http.MethodGet, "evil.example:8082", "", "", 403, "Forbidden", "evil.example"},
		{"other address", http.MethodGet, "10.0.0.9:8082", "", "", 403, "Forbidden", "AllowedHosts"},
		{"own origin", http.MethodGet, "127.0.0.1:8082", "http://127.0.0.1:8082", "", 200, "", ""},
		{"foreign origin", http.MethodGet, "127.0.0.1:8082", "http://evil.example", "", 403, "Forbidden", "evil.example"},
		{"null origin", http.MethodGet, "127.0.0.1:8082", "null", "", 403, "Forbidden", "web pages"},
		{"forget json", http.MethodPost, "127.0.0.1:8082", "", "application/json", 200, "", ""},
		{"forget rebound name", http.MethodPost, "evil.example:8082", "", "application/json", 403, "Forbidden", "evil.example"},
		{"forget cross-site", http.MethodPost, "127.0.0.1:8082", "http://evil.example", "application/json", 403, "Forbidden", "Origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := api.DefaultPrefix + "v1/keys"
			var body io.Reader
			if tt.method == http.MethodPost {
				path, body = api.DefaultPrefix+"v1/forget", strings.NewReader(forget)
			}
			req := httptest.NewRequest(tt.method, path, body)
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			before := forgets
			code, _, m := serveReq(t, h, req)
			if tt.wantCode == 200 {
				if code != 200 {
					t.Errorf("status = %d, want 200: %v", code, m)
				}
				return
			}
			checkError(t, tt.name, code, m, tt.wantCode, tt.wantReason, tt.wantMsg)
			if forgets != before {
				t.Errorf("a refused request reached Forget")
			}
		})
	}
}

// TestHandlerHosts: the address a request came in on (the pod IP for the
// metrics server) and the names in AllowedHosts are the endpoint's own.
func TestHandlerHosts(t *testing.T) {
	h := newTestHandler(fixtureKeys(), Options{})
	allowed := newTestHandler(fixtureKeys(), Options{AllowedHosts: []string{"ctrl-metrics.ops.svc"}})
	local := &net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 8443}
	tests := []struct {
		name  string
		h     http.Handler
		host  string
		local net.Addr
		want  int
	}{
		{"pod IP it came in on", h, "10.1.2.3:8443", local, 200},
		{"another pod IP", h, "10.1.2.4:8443", local, 403},
		{"allowed name", allowed, "ctrl-metrics.ops.svc:8443", nil, 200},
		{"allowed name, other case", allowed, "CTRL-metrics.ops.svc", nil, 200},
		{"name not allowed", allowed, "ctrl-metrics.ops", nil, 403},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodGet, api.DefaultPrefix+"v1/controllers", nil)
		req.Host = tt.host
		if tt.local != nil {
			req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tt.local))
		}
		if code, _, m := serveReq(t, tt.h, req); code != tt.want {
			t.Errorf("%s: Host %s: status = %d, want %d: %v", tt.name, tt.host, code, tt.want, m)
		}
	}
}

// TestHandlerStrictQuery: malformed pairs are refused, not dropped.
func TestHandlerStrictQuery(t *testing.T) {
	h := newTestHandler(fixtureKeys(), Options{})
	tests := []struct{ target, wantMsg string }{
		{"v1/keys?limit=1;sort=bogus", "malformed query"},
		{"v1/keys?%zz=1", "malformed query"},
		{"v1/keys?q=%", "malformed query"},
		{"v1/controllers?x=1", `"x"`},
		{"v1/key?key=a&key=b", "given 2 times"},
		{"v1/errors?sort=next", `"sort"`},
		{"v1/errors?state=sleeping", "sleeping"},
	}
	for _, tt := range tests {
		code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+tt.target, "")
		checkError(t, tt.target, code, m, http.StatusBadRequest, "BadRequest", tt.wantMsg)
	}
}

// TestHandlerLongURL: a URL past the bound, over real HTTP, gets the
// documented shape. (That Server's own http.Server lets it reach the
// handler, not net/http's plain-text 431, is the instrument's test.)
func TestHandlerLongURL(t *testing.T) {
	srv := httptest.NewUnstartedServer(newTestHandler(fixtureKeys(), Options{}))
	srv.Config.MaxHeaderBytes = MaxHeaderBytes
	srv.Start()
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + api.DefaultPrefix + "v1/keys?q=" + strings.Repeat("a", 100<<10))
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
