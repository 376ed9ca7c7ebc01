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
