package inspector_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestNewClient(t *testing.T) {
	tests := []struct {
		base, want string // want "" for an error
	}{
		{base: "http://127.0.0.1:8082", want: "http://127.0.0.1:8082/debug/backoff/"},
		{base: "http://127.0.0.1:8082/", want: "http://127.0.0.1:8082/debug/backoff/"},
		{base: "https://ctrl:8443/metrics/backoff", want: "https://ctrl:8443/metrics/backoff/"},
		{base: "nonsense"},
		{base: "ftp://127.0.0.1:21"},
		{base: "http://"},
	}
	for _, tt := range tests {
		c, err := inspector.NewClient(tt.base, nil)
		switch {
		case tt.want == "":
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.base)) {
				t.Errorf("NewClient(%q) error = %v, want one naming the address", tt.base, err)
			}
		case err != nil:
			t.Errorf("NewClient(%q): %v", tt.base, err)
		case c.URL() != tt.want:
			t.Errorf("NewClient(%q).URL() = %q, want %q", tt.base, c.URL(), tt.want)
		}
	}
}

func TestKeyQueryValues(t *testing.T) {
	tests := []struct {
		q    inspector.KeyQuery
		want string
	}{
		{q: inspector.KeyQuery{}, want: ""},
		{q: inspector.KeyQuery{Controller: "widget", Q: "503 err", Sort: "failures", Limit: 20, Offset: 40,
			States: []api.State{api.StateBackoff, api.StateFailed}},
			want: "controller=widget&limit=20&offset=40&q=503+err&sort=failures&state=backoff%2Cfailed"},
	}
	for _, tt := range tests {
		if got := tt.q.Values().Encode(); got != tt.want {
			t.Errorf("%+v.Values() = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// The endpoint's own errors keep its reason and message.
func TestClientEndpointErrors(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	r.controller("widget").fail(t, "default/w1", 1, "boom")
	c := r.endpoint(t, "").Client
	ctx := context.Background()
	_, keysErr := c.Keys(ctx, inspector.KeyQuery{Sort: "bogus"})
	_, keyErr := c.Key(ctx, "widget", "default/nope")
	_, ctrlErr := c.Key(ctx, "gizmo", "default/w1")

	tests := []struct {
		name string
		err  error
		want inspector.APIError
	}{
		{name: "bad parameter", err: keysErr, want: inspector.APIError{Code: 400, Reason: "BadRequest", Field: "sort", Method: "GET", Path: "/debug/backoff/v1/keys",
			Message: `parameter "sort": "bogus" is not a sort order; use ` + api.SortNames(), Problem: `"bogus" is not a sort order; use ` + api.SortNames()}},
		{name: "unknown key", err: keyErr, want: inspector.APIError{Code: 404, Reason: "NotFound", Method: "GET", Path: "/debug/backoff/v1/key",
			Message: `controller "widget" has no key "default/nope"`}},
		{name: "unknown controller", err: ctrlErr, want: inspector.APIError{Code: 404, Reason: "NotFound", Method: "GET", Path: "/debug/backoff/v1/key",
			Message: `no controller "gizmo"; known: widget`}},
	}
	for _, tt := range tests {
		var got *inspector.APIError
		if !errors.As(tt.err, &got) {
			t.Errorf("%s: error %v is not an *APIError", tt.name, tt.err)
			continue
		}
		if *got != tt.want {
			t.Errorf("%s: APIError =\n %+v\nwant\n %+v", tt.name, *got, tt.want)
		}
		if inspector.IsForbidden(tt.err) {
			t.Errorf("%s: IsForbidden = true for a %d", tt.name, got.Code)
		}
	}
	if want := `GET /debug/backoff/v1/key: 404 NotFound: controller "widget" has no key "default/nope"`; keyErr.Error() != want {
		t.Errorf("Error() = %q, want %q", keyErr.Error(), want)
	}
}

// plainServer answers every request with code and a plain-text body, as
// controller-runtime's authn/authz filter and other proxies do.
func plainServer(t *testing.T, code int, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, body, code) }))
	t.Cleanup(srv.Close)
	return srv
}

func TestClientPlainErrors(t *testing.T) {
	ctx := context.Background()
	get := func(c *inspector.Client) error { _, err := c.Keys(ctx, inspector.KeyQuery{}); return err }
	post := func(c *inspector.Client) error {
		_, err := c.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"default/w1"}})
		return err
	}
	tests := []struct {
		name      string
		code      int
		body      string
		path      string // the client's base path
		call      func(*inspector.Client) error
		want      inspector.APIError
		forbidden bool
	}{{
		name: "403 on GET names the URL pattern and the verb get", code: 403, body: "Forbidden", call: get, forbidden: true,
		want: inspector.APIError{Code: 403, Reason: "Forbidden", Method: "GET", Path: "/debug/backoff/v1/keys",
			Message: `your user may not "get" the non-resource URL "/debug/backoff/v1/keys": ask for a (Cluster)Role with nonResourceURLs: ["/debug/backoff/*"] and verbs: ["get"], bound to you`},
	}, {
		name: "403 on POST names the verb post", code: 403, body: "Forbidden", call: post, forbidden: true,
		want: inspector.APIError{Code: 403, Reason: "Forbidden", Method: "POST", Path: "/debug/backoff/v1/forget",
			Message: `your user may not "post" the non-resource URL "/debug/backoff/v1/forget": ask for a (Cluster)Role with nonResourceURLs: ["/debug/backoff/*"] and verbs: ["post"], bound to you`},
	}, {
		name: "403 under another prefix", code: 403, body: "Forbidden", path: "/metrics/backoff/", call: get, forbidden: true,
		want: inspector.APIError{Code: 403, Reason: "Forbidden", Method: "GET", Path: "/metrics/backoff/v1/keys",
			Message: `your user may not "get" the non-resource URL "/metrics/backoff/v1/keys": ask for a (Cluster)Role with nonResourceURLs: ["/metrics/backoff/*"] and verbs: ["get"], bound to you`},
	}, {
		name: "401 says credentials are needed", code: 401, body: "Unauthorized", call: get,
		want: inspector.APIError{Code: 401, Reason: "Unauthorized", Method: "GET", Path: "/debug/backoff/v1/keys",
			Message: "the endpoint needs credentials: it sits behind the metrics server's authentication; use a kubeconfig whose user has a bearer token (or exec credentials)"},
	}, {
		name: "404 says there is no endpoint", code: 404, body: "404 page not found", call: get,
		want: inspector.APIError{Code: 404, Reason: "Not Found", Method: "GET", Path: "/debug/backoff/v1/keys",
			Message: "no backoff endpoint at HOST/debug/backoff/v1/keys (is the controller instrumented, and is the prefix right?)"},
	}, {
		name: "anything else keeps its text", code: 502, body: "  upstream connect error  ", call: get,
		want: inspector.APIError{Code: 502, Reason: "Bad Gateway", Method: "GET", Path: "/debug/backoff/v1/keys", Message: "upstream connect error"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := plainServer(t, tt.code, tt.body)
			c, err := inspector.NewClient(srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			// HOST in a message is the server's host:port.
			tt.want.Message = strings.ReplaceAll(tt.want.Message, "HOST", srv.Listener.Addr().String())
			err = tt.call(c)
			var got *inspector.APIError
			if !errors.As(err, &got) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if *got != tt.want {
				t.Errorf("APIError =\n %+v\nwant\n %+v", *got, tt.want)
			}
			if f := inspector.IsForbidden(fmt.Errorf("forget: %w", err)); f != tt.forbidden {
				t.Errorf("IsForbidden(wrapped) = %v, want %v", f, tt.forbidden)
			}
		})
	}
}

func TestClientNotAnEndpoint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "<html>hello</html>") }))
	defer srv.Close()
	c, err := inspector.NewClient(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Controllers(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not a backoff endpoint response") {
		t.Errorf("Controllers from an HTML page: error = %v, want one saying it is not a backoff endpoint", err)
	}
	if inspector.IsForbidden(err) || inspector.IsForbidden(nil) {
		t.Error("IsForbidden is true for an error that is not a 403")
	}
}
