package instrument

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// This file runs real controller-runtime managers, built as an operator's
// main builds them: manager-level options, the builder, WithOptions,
// Complete. The manager talks to an address nothing listens on: its
// controllers watch a channel, so it never needs the API server.

// managerRun is one running manager with one controller.
type managerRun struct {
	t      *testing.T
	mgr    manager.Manager
	ctrl   controller.Controller
	events chan event.GenericEvent
	// reconciled receives the key of each reconcile, in the worker.
	reconciled chan string
	cancel     context.CancelFunc
	done       chan error
}

// newManager builds a manager with the given manager-level controller
// config; mgrOpts, if set, adjusts its options further.
func newManager(t *testing.T, cfg config.Controller, log logr.Logger, mgrOpts func(*manager.Options)) manager.Manager {
	t.Helper()
	cfg.SkipNameValidation = ptr.To(true) // one process runs many managers here
	o := manager.Options{
		Controller:             cfg,
		Logger:                 log,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	}
	if mgrOpts != nil {
		mgrOpts(&o)
	}
	mgr, err := manager.New(&rest.Config{Host: "http://127.0.0.1:1"}, o)
	if err != nil {
		t.Fatalf("manager.New: %v", err)
	}
	return mgr
}

// addController builds a controller named name on mgr with the builder, as
// the README does, with copts; probe, if not nil, instruments it.
func addController(t *testing.T, mgr manager.Manager, name string, probe *Probe, copts controller.Options) *managerRun {
	t.Helper()
	run := &managerRun{t: t, mgr: mgr, events: make(chan event.GenericEvent), reconciled: make(chan string, 100)}
	var r reconcile.Reconciler = reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		select {
		case run.reconciled <- req.String():
		default:
		}
		if strings.HasPrefix(req.Name, "fail") {
			return reconcile.Result{}, errors.New("eu region unavailable")
		}
		return reconcile.Result{}, nil
	})
	if probe != nil {
		copts = probe.ControllerOptions(copts)
		r = probe.Reconciler(r)
	}
	c, err := builder.ControllerManagedBy(mgr).Named(name).
		WatchesRawSource(source.Channel(run.events, &crhandler.EnqueueRequestForObject{})).
		WithOptions(copts).
		Build(r)
	if err != nil {
		t.Fatalf("builder: %v", err)
	}
	run.ctrl = c
	return run
}

// start runs the manager until the test ends; the manager's error, if it
// exits early, is reported on done.
func (m *managerRun) start() {
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.done = cancel, make(chan error, 1)
	go func() { m.done <- m.mgr.Start(ctx) }()
	m.t.Cleanup(m.stop)
}

// stop stops the manager and waits for it.
func (m *managerRun) stop() {
	if m.cancel == nil {
		return
	}
	m.cancel()
	m.cancel = nil
	select {
	case err := <-m.done:
		if err != nil {
			m.t.Errorf("manager exited: %v", err)
		}
	case <-time.After(waitFor):
		m.t.Errorf("manager did not stop within %v", waitFor)
	}
}

// reconcile sends an event for key and waits until the controller has
// reconciled it, which also orders everything the controller did before
// (building its queue) before what the test reads next.
func (m *managerRun) reconcile(key string) {
	m.t.Helper()
	r := reqOf(key)
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: r.Name}}
	deadline := time.After(waitFor)
	select {
	case m.events <- event.GenericEvent{Object: obj}:
	case err := <-m.done:
		m.t.Fatalf("manager exited before reconciling %s: %v", key, err)
	case <-deadline:
		m.t.Fatalf("event for %s not taken within %v", key, waitFor)
	}
	for {
		select {
		case got := <-m.reconciled:
			if got == key {
				return
			}
		case err := <-m.done:
			m.t.Fatalf("manager exited before reconciling %s: %v", key, err)
		case <-deadline:
			m.t.Fatalf("%s not reconciled within %v", key, waitFor)
		}
	}
}

// field reads an exported field of controller-runtime's internal controller
// type behind the Controller interface.
func (m *managerRun) field(name string) any {
	m.t.Helper()
	f := reflect.ValueOf(m.ctrl).Elem().FieldByName(name)
	if !f.IsValid() {
		m.t.Fatalf("controller %T has no field %s", m.ctrl, name)
	}
	return f.Interface()
}
