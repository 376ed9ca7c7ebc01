package instrument

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/testr"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// crReq is the item type of a controller-runtime controller.
type crReq = reconcile.Request

// TestProbeKeepsControllerQueue builds the same controller on a real manager
// with and without the probe, with the queue chosen at the manager level,
// at the controller level, at both or at neither, and with the default or
// a custom limiter: the instrumented controller must run the queue and the
// limiter the bare one runs.
func TestProbeKeepsControllerQueue(t *testing.T) {
	for _, c := range []struct {
		name       string
		mgr, ctrl  *bool
		wantPQ     bool
		probeSaysQ *bool // the probe's own Options.UsePriorityQueue
	}{
		{name: "neither", wantPQ: true},
		{name: "manager-classic", mgr: ptr.To(false), wantPQ: false},
		{name: "manager-priority", mgr: ptr.To(true), wantPQ: true},
		{name: "controller-classic", ctrl: ptr.To(false), wantPQ: false},
		{name: "controller-priority", ctrl: ptr.To(true), wantPQ: true},
		{name: "manager-classic-controller-priority", mgr: ptr.To(false), ctrl: ptr.To(true), wantPQ: true},
		{name: "manager-priority-controller-classic", mgr: ptr.To(true), ctrl: ptr.To(false), wantPQ: false},
		{name: "manager-classic-probe-priority", mgr: ptr.To(false), probeSaysQ: ptr.To(true), wantPQ: false},
	} {
		for _, custom := range []bool{false, true} {
			name := c.name
			if custom {
				name += "/custom-limiter"
			}
			t.Run(name, func(t *testing.T) {
				var rl workqueue.TypedRateLimiter[crReq]
				if custom {
					rl = workqueue.NewTypedItemFastSlowRateLimiter[crReq](time.Millisecond, time.Hour, 3)
				}
				run := func(p *Probe) (queue, limiter string) {
					mgr := newManager(t, config.Controller{UsePriorityQueue: c.mgr}, logr.Discard(), nil)
					m := addController(t, mgr, "widget", p, controller.Options{UsePriorityQueue: c.ctrl, RateLimiter: rl})
					m.start()
					m.reconcile("default/w1")
					defer m.stop()
					if p == nil {
						return queueKind(m.field("Queue")), limiterKind(m.field("RateLimiter"))
					}
					p.mu.Lock()
					defer p.mu.Unlock()
					if p.limiter == nil {
						t.Fatal("the probe wrapped no limiter")
					}
					return queueKind(m.field("Queue")), limiterKind(p.limiter.inner)
				}
				bareQ, bareL := run(nil)
				if want := map[bool]string{true: "priority", false: "classic"}[c.wantPQ]; bareQ != want {
					t.Fatalf("bare controller runs the %s queue, want %s: the test's premise about controller-runtime is wrong", bareQ, want)
				}
				p := New("widget", Options{Registry: NewRegistry(), DisableMetrics: true, UsePriorityQueue: c.probeSaysQ})
				q, l := run(p)
				if q != bareQ || l != bareL {
					t.Errorf("instrumented: %s queue, limiter %s; without the probe: %s queue, limiter %s", q, l, bareQ, bareL)
				}
				if got := p.store.pq.Load(); got != c.wantPQ {
					t.Errorf("the probe's store believes priority queue = %v, want %v", got, c.wantPQ)
				}
			})
		}
	}
}

// queueKind says which queue a controller runs, through the probe's
// decorators and controller-runtime's wrapper of a classic queue.
func queueKind(q any) string {
	for {
		switch v := q.(type) {
		case *priorityQueue[crReq]:
			q = v.pq
			continue
		case *queue[crReq]:
			q = v.TypedRateLimitingInterface
			continue
		}
		rv := reflect.ValueOf(q)
		if rv.Kind() == reflect.Pointer && strings.Contains(rv.Type().String(), "priorityQueueWrapper") {
			q = rv.Elem().FieldByName("TypedRateLimitingInterface").Interface()
			continue
		}
		break
	}
	if _, ok := q.(priorityqueue.PriorityQueue[crReq]); ok {
		return "priority"
	}
	return "classic"
}

// limiterKind names a limiter by what it decides: the probe's defaults are
// client-go's (defaults_test.go holds them to it), a custom limiter is
// itself.
func limiterKind(rl any) string {
	switch rl.(type) {
	case *workqueue.TypedItemExponentialFailureRateLimiter[crReq], *ExponentialLimiter[crReq]:
		return "per-item exponential"
	case *workqueue.TypedMaxOfRateLimiter[crReq], *ControllerLimiter[crReq]:
		return "max(per-item exponential, bucket)"
	}
	return fmt.Sprintf("custom %T %p", rl, rl)
}

// TestControllerOptionsKeepsTheRest: every option but the two the probe
// wraps comes back as given, set or unset, so that the manager-level
// defaults (config.Controller) still apply to what was unset. A field
// controller-runtime adds fails the test until it is looked at here.
func TestControllerOptionsKeepsTheRest(t *testing.T) {
	wrapped := map[string]bool{"RateLimiter": true, "NewQueue": true}
	p := New("widget", Options{Registry: NewRegistry(), DisableMetrics: true})
	full := controller.Options{
		SkipNameValidation:      ptr.To(true),
		MaxConcurrentReconciles: 4,
		CacheSyncTimeout:        time.Minute,
		RecoverPanic:            ptr.To(false),
		NeedLeaderElection:      ptr.To(false),
		Reconciler:              reconcile.Func(func(context.Context, crReq) (reconcile.Result, error) { return reconcile.Result{}, nil }),
		RateLimiter:             workqueue.NewTypedItemExponentialFailureRateLimiter[crReq](time.Second, time.Hour),
		NewQueue:                p.NewQueue,
		LogConstructor:          func(*crReq) logr.Logger { return logr.Discard() },
		Logger:                  testr.New(t),
		UsePriorityQueue:        ptr.To(false),
		EnableWarmup:            ptr.To(true),
		ReconciliationTimeout:   time.Minute,
	}
	in := reflect.ValueOf(full)
	for i := range in.NumField() {
		if in.Field(i).IsZero() {
			t.Fatalf("controller.Options.%s is unset in this test: set it, and check what the probe does with it", in.Type().Field(i).Name)
		}
	}
	for _, c := range []struct {
		name string
		in   controller.Options
	}{{"all set", full}, {"none set", controller.Options{}}} {
		t.Run(c.name, func(t *testing.T) {
			got := reflect.ValueOf(p.ControllerOptions(c.in))
			in := reflect.ValueOf(c.in)
			for i := range in.NumField() {
				name := in.Type().Field(i).Name
				if wrapped[name] {
					continue
				}
				if a, b := in.Field(i), got.Field(i); !sameValue(a, b) {
					t.Errorf("%s: given %v, ControllerOptions returned %v", name, a, b)
				}
			}
		})
	}
}

// sameValue compares option values; functions by identity.
func sameValue(a, b reflect.Value) bool {
	if a.Kind() == reflect.Interface && !a.IsNil() && !b.IsNil() {
		a, b = a.Elem(), b.Elem()
	}
	if a.Kind() == reflect.Func {
		return a.IsNil() == b.IsNil() && (a.IsNil() || a.Pointer() == b.Pointer())
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
