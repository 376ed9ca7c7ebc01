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
