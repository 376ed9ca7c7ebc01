package instrument

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// controllerLabels lists the controller label of the probe's series in reg.
func controllerLabels(t *testing.T, reg *prometheus.Registry) []string {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	var names []string
	for _, mf := range mfs {
		if mf.GetName() != MetricKeys {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" && !slices.Contains(names, l.GetValue()) {
					names = append(names, l.GetValue())
				}
			}
		}
	}
	return names
}

// TestProbeTakesTheBuildersName: New("widget") beside For(&corev1.ConfigMap{}),
// which controller-runtime names "configmap": once the controller builds its
// queue, the endpoint and the series say "configmap".
func TestProbeTakesTheBuildersName(t *testing.T) {
	reg, prom := NewRegistry(), prometheus.NewRegistry()
	p := New("widget", Options{Registry: reg, MetricsRegisterer: prom, Object: &corev1.ConfigMap{}})
	if got := controllerLabels(t, prom); !slices.Equal(got, []string{"widget"}) {
		t.Fatalf("before the controller is built: series of %v, want [widget]", got)
	}
	mgr := newManager(t, config.Controller{}, logr.Discard(), nil)
	// For's informer cannot sync against the address nothing listens on, so
	// the controller fails its start, but only after building its queue,
	// which is when controller-runtime hands the probe its name.
	err := builder.ControllerManagedBy(mgr).For(&corev1.ConfigMap{}).
		WithOptions(p.ControllerOptions(controller.Options{CacheSyncTimeout: time.Millisecond})).
		Complete(p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		})))
	if err != nil {
		t.Fatalf("builder: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := mgr.Start(ctx); err == nil || ctx.Err() != nil {
		t.Fatalf("manager.Start = %v (context: %v); want the cache sync's timeout before the test's", err, ctx.Err())
	}
	if got := reg.Names(); !slices.Equal(got, []string{"configmap"}) {
		t.Errorf("the endpoint lists %v, want [configmap], the controller's name", got)
	}
	if got := p.Name(); got != "configmap" {
		t.Errorf("Name() = %q, want configmap", got)
	}
	if got := controllerLabels(t, prom); !slices.Equal(got, []string{"configmap"}) {
		t.Errorf("series of %v, want [configmap]", got)
	}
}

// TestProbeNameDefaultsToTheKind: New("") names the probe as the builder
// names a controller that is not Named.
func TestProbeNameDefaultsToTheKind(t *testing.T) {
	p := New("", Options{Registry: NewRegistry(), DisableMetrics: true, Object: &corev1.ConfigMap{}})
	if got := p.Name(); got != "configmap" {
		t.Errorf("Name() = %q, want configmap", got)
	}
}

// TestForgetLineCarriesTheControllersName runs a real manager whose
// controller is Named otherwise than the probe, fails a key, forgets it
// through the endpoint, and reads the forget's log line.
func TestForgetLineCarriesTheControllersName(t *testing.T) {
	const ctl, key = "widget-controller", "default/fail-1"
	reg := NewRegistry()
	logs := &logLines{}
	log := logs.logger()
	srv := httptest.NewServer(NewHandler(HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	ep := &testEndpoint{t: t, Registry: reg, base: srv.URL + api.DefaultPrefix}

	p := New("widget", Options{Registry: reg, DisableMetrics: true})
	m := addController(t, newManager(t, config.Controller{}, logr.Discard(), nil), ctl, p, controller.Options{})
	m.start()
	m.reconcile(key)
	eventually(t, waitFor, func() (bool, string) {
		k, ok := ep.key(ctl, key)
		return ok && k.State == api.StateBackoff, "the key in backoff under " + ctl
	})
	resp := ep.forget(api.ForgetRequest{Controller: ctl, Keys: []string{key}})
	if resp.Controller != ctl || resp.Count != 1 {
		t.Errorf("forget answered controller %q, count %d; want %q, 1", resp.Controller, resp.Count, ctl)
	}
	line := logs.waitLine(t, "the forget", "forgot backoff")
	if !strings.Contains(line, `"controller"="`+ctl+`"`) {
		t.Errorf("the forget's line does not name %s: %s", ctl, line)
	}
}
