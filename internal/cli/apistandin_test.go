package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// configMapServer is an API server stand-in serving discovery and the
// ConfigMaps of namespace widgets named by names, as a list and one by one
// (ConfigMapServer to the package's external tests).
func configMapServer(t *testing.T, names ...string) *httptest.Server {
	t.Helper()
	list := corev1.ConfigMapList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMapList"}}
	for i, name := range names {
		list.Items = append(list.Items, corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "widgets", Name: name, UID: types.UID("u-" + name), ResourceVersion: fmt.Sprint(i + 1)}, Data: map[string]string{"a": "b"}})
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var body any
		switch {
		case r.URL.Path == "/api":
			body = metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}}
		case r.URL.Path == "/apis":
			body = metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
		case r.URL.Path == "/api/v1":
			body = metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList"}, GroupVersion: "v1", APIResources: []metav1.APIResource{
				{Name: "configmaps", Namespaced: true, Kind: "ConfigMap", Verbs: metav1.Verbs{"get", "list"}},
				{Name: "events", Namespaced: true, Kind: "Event", Verbs: metav1.Verbs{"get", "list"}},
			}}
		case r.URL.Path == "/api/v1/namespaces/widgets/configmaps":
			body = list
		case strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/widgets/configmaps/"):
			name := strings.TrimPrefix(r.URL.Path, "/api/v1/namespaces/widgets/configmaps/")
			i := slices.IndexFunc(list.Items, func(c corev1.ConfigMap) bool { return c.Name == name })
			if i < 0 {
				http.NotFound(w, r)
				return
			}
			body = list.Items[i]
		case strings.HasSuffix(r.URL.Path, "/events"):
			body = corev1.EventList{TypeMeta: metav1.TypeMeta{Kind: "EventList", APIVersion: "v1"}}
		default:
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(api.Close)
	return api
}

// failingEndpoint is an instrumented controller run outside the cluster
// (go run), its endpoint on loopback: controller "configmap" failed once
// on ConfigMap widgets/down-1 ("eu region unavailable") and its limiter
// (nil: the default) has set its retry (FailingEndpoint to the package's
// external tests).
func failingEndpoint(t *testing.T, limiter workqueue.TypedRateLimiter[reconcile.Request]) *httptest.Server {
	t.Helper()
	return failingEndpointWith(t, limiter, "eu region unavailable")
}

// failingEndpointWith is failingEndpoint, its reconcile failing with msg.
func failingEndpointWith(t *testing.T, limiter workqueue.TypedRateLimiter[reconcile.Request], msg string) *httptest.Server {
	t.Helper()
	return failingEndpointErr(t, limiter, errors.New(msg))
}

// failingEndpointErr is failingEndpoint, its reconcile failing with err.
func failingEndpointErr(t *testing.T, limiter workqueue.TypedRateLimiter[reconcile.Request], err error) *httptest.Server {
	t.Helper()
	reg := instrument.NewRegistry()
	log := logr.Discard()
	ep := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(ep.Close)
	p := instrument.New("configmap", instrument.Options{Registry: reg, Object: &corev1.ConfigMap{}, DisableMetrics: true})
	rl := p.RateLimiter(limiter)
	req := reconcile.Request{}
	req.Namespace, req.Name = "widgets", "down-1"
	rec := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, err
	}))
	_, _ = rec.Reconcile(context.Background(), req)
	rl.When(req)
	return ep
}
