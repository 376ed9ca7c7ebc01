package snapshot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// TestEveryServerIsOneHandler: the endpoint, the log-mode server and the
// snapshot server answer the same requests the same way — the guard, the
// URL bound, routing, methods, parameters and forget's refusal — because
// they are one handler over three sources. Each row is one request; the
// want is read off the API's rules, not off one server's answer.
func TestEveryServerIsOneHandler(t *testing.T) {
	reg := instrument.NewRegistry()
	probe := instrument.New("widgets", instrument.Options{Registry: reg, Object: &corev1.ConfigMap{}})
	rl := probe.RateLimiter(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	rl.When(reconcile.Request{})

	store := logs.NewStore(logs.Options{})
	line := `{"level":"error","ts":1617276479.081,"msg":"Reconciler error","controller":"widgets","request":"demo/w-1","error":"connection refused"}` + "\n"
	if _, _, err := store.Read(context.Background(), strings.NewReader(line)); err != nil {
		t.Fatal(err)
	}

	servers := []struct {
		name, host string
		h          http.Handler
		readOnly   bool
	}{
		{"endpoint", "127.0.0.1", instrument.NewHandler(instrument.HandlerOptions{Registry: reg}), false},
		{"log server", inspector.InProcessHost, store.Handler(), true},
		{"snapshot server", inspector.InProcessHost, newServer(&pagesFile(3).Endpoints[0], pagesFile(3).TakenAt), true},
	}
	long := strings.Repeat("a", 9<<10)
	for _, tt := range []struct {
		name, method, path, host, origin string
		code                             int
		field                            string // the error's field, when it names one
	}{
		{name: "controllers", method: http.MethodGet, path: "v1/controllers", code: http.StatusOK},
		{name: "HEAD is a GET", method: http.MethodHead, path: "v1/keys", code: http.StatusOK},
		{name: "unknown parameter", method: http.MethodGet, path: "v1/keys?bogus=1", code: http.StatusBadRequest, field: "bogus"},
		{name: "bad sort", method: http.MethodGet, path: "v1/keys?sort=nope", code: http.StatusBadRequest, field: "sort"},
		{name: "bad continue", method: http.MethodGet, path: "v1/keys?continue=xyz", code: http.StatusBadRequest, field: "continue"},
		{name: "offset past the bound", method: http.MethodGet, path: "v1/keys?offset=1000001", code: http.StatusBadRequest, field: "offset"},
		{name: "costly regex", method: http.MethodGet, path: "v1/errors?q=~(.*){16}%23", code: http.StatusBadRequest, field: "q"},
		{name: "key without key", method: http.MethodGet, path: "v1/key", code: http.StatusBadRequest, field: "key"},
		{name: "unknown controller", method: http.MethodGet, path: "v1/keys?controller=nope", code: http.StatusNotFound},
		{name: "unknown endpoint", method: http.MethodGet, path: "v2/keys", code: http.StatusNotFound},
		{name: "wrong method", method: http.MethodPut, path: "v1/keys", code: http.StatusMethodNotAllowed},
		{name: "URL over the bound", method: http.MethodGet, path: "v1/keys?q=" + long, code: http.StatusRequestURITooLong},
		{name: "a rebound host name", method: http.MethodGet, path: "v1/keys", host: "evil.example", code: http.StatusForbidden},
		{name: "a web page", method: http.MethodGet, path: "v1/keys", origin: "http://evil.example", code: http.StatusForbidden},
	} {
		for _, s := range servers {
			host := s.host
			if tt.host != "" {
				host = tt.host
			}
			req := httptest.NewRequest(tt.method, "http://"+host+api.DefaultPrefix+tt.path, nil)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			rec := httptest.NewRecorder()
			s.h.ServeHTTP(rec, req)
			if rec.Code != tt.code {
				t.Errorf("%s, %s: status %d, want %d\n%s", tt.name, s.name, rec.Code, tt.code, rec.Body)
				continue
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s, %s: Content-Type %q, want application/json", tt.name, s.name, ct)
			}
			if tt.code == http.StatusMethodNotAllowed && rec.Header().Get("Allow") != http.MethodGet {
				t.Errorf("%s, %s: Allow = %q, want GET", tt.name, s.name, rec.Header().Get("Allow"))
			}
			if tt.code < 400 || tt.method == http.MethodHead {
				continue
			}
			var body api.ErrorResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error.Code != tt.code || body.Error.Field != tt.field || body.Error.Message == "" {
				t.Errorf("%s, %s: error %+v (%v), want code %d, field %q and a message", tt.name, s.name, body.Error, err, tt.code, tt.field)
			}
		}
	}

	// Forget: the endpoint's alone; the read-only sources refuse it with 403
	// and say why, in the same shape.
	for _, s := range servers {
		req := httptest.NewRequest(http.MethodPost, "http://"+s.host+api.DefaultPrefix+"v1/forget",
			strings.NewReader(`{"controller":"widgets","filter":{},"dryRun":true}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, req)
		want := http.StatusOK
		if s.readOnly {
			want = http.StatusForbidden
		}
		if rec.Code != want {
			t.Errorf("forget, %s: status %d, want %d\n%s", s.name, rec.Code, want, rec.Body)
		}
	}
}

// pagesFile is a snapshot of one replica whose controller has n keys.
func pagesFile(n int) *File {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	ep := Endpoint{Name: "ctrl-0", ServerTime: at, Controllers: []api.Controller{{Name: "widget", Keys: n}}}
	for i := range n {
		ep.Keys = append(ep.Keys, api.Key{Controller: "widget", Key: fmt.Sprintf("default/w-%03d", i), State: api.StateIdle})
	}
	return &File{Kind: Kind, FormatVersion: FormatVersion, WireAPI: api.APIVersion, TakenAt: at, Endpoints: []Endpoint{ep}}
}
