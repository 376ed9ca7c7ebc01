// Package authfilter is controller-runtime's metrics-server authn/authz
// filter that also says who asked: the kubectl-backoff endpoint mounted
// behind it records the authenticated user of a forget, not the client's
// claim.
//
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{
//		BindAddress: ":8443", SecureServing: true,
//		FilterProvider: authfilter.New, // in place of filters.WithAuthenticationAndAuthorization
//		ExtraHandlers: map[string]http.Handler{instrument.DefaultPrefix: instrument.Handler()},
//	}})
//
// Why a package of its own: controller-runtime's filter
// (filters.WithAuthenticationAndAuthorization) authenticates and authorizes
// the request but leaves nothing of the user on it — the user stays in a
// local variable, and the bearer-token authenticator deletes the
// Authorization header once it has read it. So the handler behind it cannot
// tell who asked. This filter runs that same filter unchanged and, for a
// POST (the only method whose user is recorded), first authenticates a copy
// of the request the same way (TokenReview, cached a minute) and puts the
// user on the context with k8s.io/apiserver's request.WithUser, where the
// endpoint reads it. Reads cost nothing extra; a forget costs one cached
// TokenReview more.
package authfilter

import (
	"fmt"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/apis/apiserver"
	"k8s.io/apiserver/pkg/authentication/authenticatorfactory"
	"k8s.io/apiserver/pkg/endpoints/request"
	authenticationv1 "k8s.io/client-go/kubernetes/typed/authentication/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// New returns filters.WithAuthenticationAndAuthorization(config, httpClient)
// with the user of a POST on the request's context. It is a
// metricsserver.Options.FilterProvider.
func New(config *rest.Config, httpClient *http.Client) (metricsserver.Filter, error) {
	inner, err := filters.WithAuthenticationAndAuthorization(config, httpClient)
	if err != nil {
		return nil, err
	}
	client, err := authenticationv1.NewForConfigAndClient(config, httpClient)
	if err != nil {
		return nil, err
	}
	// The same authenticator controller-runtime builds: tokens only, no
	// anonymous user, reviews cached a minute.
	authn, _, err := authenticatorfactory.DelegatingAuthenticatorConfig{
		Anonymous:                &apiserver.AnonymousAuthConfig{Enabled: false},
		CacheTTL:                 time.Minute,
		TokenAccessReviewClient:  client,
		TokenAccessReviewTimeout: 10 * time.Second,
		WebhookRetryBackoff:      &wait.Backoff{Duration: 500 * time.Millisecond, Factor: 1.5, Jitter: 0.2, Steps: 5},
	}.New()
	if err != nil {
		return nil, fmt.Errorf("authfilter: create authenticator: %w", err)
	}
	return func(log logr.Logger, handler http.Handler) (http.Handler, error) {
		checked, err := inner(log, handler)
		if err != nil {
			return nil, err
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				// A clone: the authenticator deletes the header the
				// filter still has to read.
				if res, ok, err := authn.AuthenticateRequest(r.Clone(r.Context())); err == nil && ok {
					r = r.WithContext(request.WithUser(r.Context(), res.User))
				}
			}
			// Whatever happened above, the real filter decides.
			checked.ServeHTTP(w, r)
		}), nil
	}, nil
}
