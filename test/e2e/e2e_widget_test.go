//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Widgets are the e2e test's own kind. The demo's ConfigMaps have no
// generation or status.observedGeneration, so "your edit is not observed
// yet" needs a kind that has them: a CRD with a status subresource.
var widgetGVK = schema.GroupVersionKind{Group: "e2e.kubectl-backoff.io", Version: "v1", Kind: "Widget"}

// widgetsController is the name of the widgets' controller on the endpoint.
const widgetsController = "widgets"

// widgetBaseDelay is the widgets' first backoff: long, so that a key that
// failed stays in backoff while the test looks at it.
const widgetBaseDelay = time.Minute

// widgetCRD is the Widget CRD: an open spec, and a status subresource so
// that the API server bumps metadata.generation on spec changes only.
func widgetCRD() *apiextensionsv1.CustomResourceDefinition {
	open := apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr.To(true)}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + widgetGVK.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: widgetGVK.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: widgetGVK.Kind, ListKind: widgetGVK.Kind + "List"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: widgetGVK.Version, Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": open, "status": open},
				}},
			}},
		},
	}
}

// newWidget returns an empty Widget of the given name, or with spec set.
func newWidget(namespace, name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(widgetGVK)
	u.SetNamespace(namespace)
	u.SetName(name)
	if spec != nil {
		u.Object["spec"] = spec
	}
	return u
}

// widgetReconciler fails while spec.fail is true; otherwise it records the
// generation it acted on in status.observedGeneration.
type widgetReconciler struct{ c client.Client }

func (r *widgetReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	u := newWidget(req.Namespace, req.Name, nil)
	if err := r.c.Get(ctx, req.NamespacedName, u); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if fail, _, _ := unstructured.NestedBool(u.Object, "spec", "fail"); fail {
		return reconcile.Result{}, errors.New("widget backend refused the spec")
	}
	if og, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration"); og == u.GetGeneration() {
		return reconcile.Result{}, nil
	}
	if err := unstructured.SetNestedField(u.Object, u.GetGeneration(), "status", "observedGeneration"); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.c.Status().Update(ctx, u)
}

// startWidgets runs, in a manager of its own, the widgets controller (its
// probe in reg, so the demo's endpoint lists it) and a metrics server on
// metricsAddr behind controller-runtime's authn/authz filter, which serves
// reg's endpoint under api.DefaultPrefix. It stops at the end of the
// test.
func startWidgets(t *testing.T, cfg *rest.Config, namespace, metricsAddr string, reg *instrument.Registry) {
	t.Helper()
	mgr, err := manager.New(cfg, manager.Options{
		Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
		Metrics: metricsserver.Options{
			BindAddress:    metricsAddr,
			SecureServing:  true,
			FilterProvider: filters.WithAuthenticationAndAuthorization,
			ExtraHandlers: map[string]http.Handler{
				api.DefaultPrefix: instrument.NewHandler(instrument.HandlerOptions{Registry: reg}),
			},
		},
		HealthProbeBindAddress:  "0",
		GracefulShutdownTimeout: ptr.To(5 * time.Second),
		Logger:                  logr.Discard(),
	})
	if err != nil {
		t.Fatalf("widgets manager: %v", err)
	}
	probe := instrument.New(widgetsController, instrument.Options{Registry: reg, Kind: widgetGVK})
	opts := probe.ControllerOptions(controller.TypedOptions[reconcile.Request]{
		RateLimiter:        instrument.NewExponentialLimiter[reconcile.Request](widgetBaseDelay, 16*widgetBaseDelay),
		SkipNameValidation: ptr.To(true),
		Logger:             logr.Discard(),
	})
	err = builder.ControllerManagedBy(mgr).
		Named(widgetsController).
		For(newWidget("", "", nil)).
		WithOptions(opts).
		Complete(probe.Reconciler(&widgetReconciler{c: mgr.GetClient()}))
	if err != nil {
		t.Fatalf("widgets controller: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("widgets manager: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("widgets manager did not stop within 15s")
		}
	})
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		t.Fatal("widgets manager: cache did not sync")
	}
}

// widgetObservedGeneration reads status.observedGeneration of a widget.
func widgetObservedGeneration(ctx context.Context, c client.Client, namespace, name string) (gen, observed int64, err error) {
	u := newWidget(namespace, name, nil)
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, u); err != nil {
		return 0, 0, err
	}
	og, found, err := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	if err != nil || !found {
		return u.GetGeneration(), 0, fmt.Errorf("widget %s/%s: no status.observedGeneration yet (%v)", namespace, name, err)
	}
	return u.GetGeneration(), og, nil
}
