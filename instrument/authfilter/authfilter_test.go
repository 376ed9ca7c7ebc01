package authfilter_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/authfilter"
	authnv1 "k8s.io/api/authentication/v1"
	authzv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// reviewServer answers the two reviews the filter asks the API server for:
// the token "alice-token" is alice, every other token is unknown, and an
// authenticated user may do anything.
func reviewServer(t *testing.T) *rest.Config {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/apis/authentication.k8s.io/v1/tokenreviews":
			var tr authnv1.TokenReview
			if err := json.NewDecoder(r.Body).Decode(&tr); err != nil {
				t.Errorf("token review: %v", err)
			}
			if tr.Spec.Token == "alice-token" {
				tr.Status = authnv1.TokenReviewStatus{Authenticated: true, User: authnv1.UserInfo{Username: "alice"}}
			}
			_ = json.NewEncoder(w).Encode(tr)
		case "/apis/authorization.k8s.io/v1/subjectaccessreviews":
			var sar authzv1.SubjectAccessReview
			if err := json.NewDecoder(r.Body).Decode(&sar); err != nil {
				t.Errorf("access review: %v", err)
			}
			sar.Status.Allowed = true
			_ = json.NewEncoder(w).Encode(sar)
		default:
			t.Errorf("unexpected API call %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL}
}

// TestForgetUser forgets a key through each way of mounting the endpoint and
// reads who the forget was recorded as.
func TestForgetUser(t *testing.T) {
	cfg := reviewServer(t)
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		provider func(*rest.Config, *http.Client) (metricsserver.Filter, error) // nil: no filter
		wantUser string
	}{
		{"no filter: the claim, unverified", nil, "mallory" + api.UnverifiedSuffix},
		// controller-runtime's own filter lets the request through but keeps the
		// user to itself: the claim is all the endpoint has.
		{"controller-runtime's filter: the claim, unverified", filters.WithAuthenticationAndAuthorization, "mallory" + api.UnverifiedSuffix},
		{"authfilter: the authenticated user", authfilter.New, "alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := instrument.NewRegistry()
			p := instrument.New("widget", instrument.Options{Registry: reg, DisableMetrics: true})
			item := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "w1"}}
			p.RateLimiter(nil).When(item) // one failure to forget
			endpoint := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: new(logr.Discard())})
			h := endpoint
			if tt.provider != nil {
				f, err := tt.provider(cfg, hc)
				if err != nil {
					t.Fatal(err)
				}
				if h, err = f(logr.Discard(), endpoint); err != nil {
					t.Fatal(err)
				}
			}
			srv := httptest.NewServer(h)
			defer srv.Close()

			body := `{"controller":"widget","keys":["default/w1"],"user":"mallory","reason":"dependency restored"}`
			req, err := http.NewRequest(http.MethodPost, srv.URL+api.DefaultPrefix+"v1/forget", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer alice-token")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("forget: status %d, want 200", resp.StatusCode)
			}

			rec := httptest.NewRecorder()
			endpoint.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, srv.URL+api.DefaultPrefix+"v1/key?controller=widget&key=default/w1", nil))
			var k api.KeyDetail
			if err := json.NewDecoder(rec.Body).Decode(&k); err != nil {
				t.Fatalf("v1/key: %v (status %d)", err, rec.Code)
			}
			if r := k.LastReset; r == nil || r.User != tt.wantUser || r.Reason != "dependency restored" {
				t.Errorf("lastReset = %+v, want user %q, reason %q", r, tt.wantUser, "dependency restored")
			}
		})
	}
}

// TestSameDecisions checks that the extra authentication changes no
// decision: each request gets the status controller-runtime's filter gives it.
func TestSameDecisions(t *testing.T) {
	cfg := reviewServer(t)
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	status := func(provider func(*rest.Config, *http.Client) (metricsserver.Filter, error), method, token string) int {
		f, err := provider(cfg, hc)
		if err != nil {
			t.Fatal(err)
		}
		h, err := f(logr.Discard(), instrument.NewHandler(instrument.HandlerOptions{Registry: instrument.NewRegistry(), Logger: new(logr.Discard())}))
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(method, "http://127.0.0.1"+api.DefaultPrefix+"v1/forget", strings.NewReader(`{"controller":"none","keys":["a"]}`))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for _, method := range []string{http.MethodPost, http.MethodGet} {
		for _, token := range []string{"alice-token", "unknown-token", ""} {
			want := status(filters.WithAuthenticationAndAuthorization, method, token)
			if got := status(authfilter.New, method, token); got != want {
				t.Errorf("%s with token %q: status %d, want %d as controller-runtime's filter gives", method, token, got, want)
			}
		}
	}
}
