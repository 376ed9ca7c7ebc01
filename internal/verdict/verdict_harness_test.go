package verdict

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
)

// The harness of the verdict table: a real controller on an instrumented
// endpoint, driven by events and scripted reconciles.

func want(ok bool, what string) string {
	if ok {
		return ""
	}
	return "want " + what
}

// verdictHarness is one instrumented controller behind a real endpoint and
// the inspector session kubectl backoff would use.
type verdictHarness struct {
	name    string
	reg     *instrument.Registry
	session *inspector.Session
	events  chan event.GenericEvent
	gate    chan struct{}
	opened  sync.Once

	mu      sync.Mutex
	scripts map[string]func(n int) (reconcile.Result, error)
	calls   map[string]int
}

func newVerdictEndpoint(t *testing.T, name string) *verdictHarness {
	t.Helper()
	h := &verdictHarness{name: name, reg: instrument.NewRegistry(), gate: make(chan struct{}),
		events: make(chan event.GenericEvent), scripts: map[string]func(int) (reconcile.Result, error){}, calls: map[string]int{}}
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: h.reg, Logger: &log}))
	t.Cleanup(srv.Close)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.session = s
	t.Cleanup(h.open)
	return h
}

// startVerdictController runs a controller with one worker whose limiter
// starts at a minute, so that a backoff stays put while the test reads it.
func startVerdictController(t *testing.T, pq bool) *verdictHarness {
	t.Helper()
	return startVerdictControllerWith(t, pq, instrument.NewExponentialLimiter[reconcile.Request](time.Minute, time.Hour))
}

// startVerdictControllerWith runs the controller with rl; nil is the
// probe's own default, as a controller that sets none gets.
func startVerdictControllerWith(t *testing.T, pq bool, rl workqueue.TypedRateLimiter[reconcile.Request]) *verdictHarness {
	t.Helper()
	h := newVerdictEndpoint(t, "widget")
	probe := instrument.New(h.name, instrument.Options{Registry: h.reg})
	opts := probe.ControllerOptions(controller.TypedOptions[reconcile.Request]{
		Reconciler:         probe.Reconciler(reconcile.Func(h.reconcile)),
		RateLimiter:        rl,
		UsePriorityQueue:   ptr.To(pq),
		SkipNameValidation: ptr.To(true),
		Logger:             logr.Discard(),
	})
	c, err := controller.NewTypedUnmanaged(h.name, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Watch(source.Channel(h.events, &crhandler.EnqueueRequestForObject{})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		h.open() // a reconcile held at the gate must end for the controller to stop
		cancel()
		<-done
	})
	return h
}

func (h *verdictHarness) reconcile(_ context.Context, r reconcile.Request) (reconcile.Result, error) {
	key := r.NamespacedName.String()
	h.mu.Lock()
	h.calls[key]++
	n, fn := h.calls[key], h.scripts[key]
	h.mu.Unlock()
	if fn == nil {
		return reconcile.Result{}, nil
	}
	return fn(n)
}

// open releases every reconcile held at the gate.
func (h *verdictHarness) open() { h.opened.Do(func() { close(h.gate) }) }

func (h *verdictHarness) script(key string, fn func(n int) (reconcile.Result, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.scripts[key] = fn
}

// fail makes key fail with err on every reconcile and waits for n failures.
func (h *verdictHarness) fail(t *testing.T, key string, err error, n int) {
	t.Helper()
	h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{}, err })
	h.send(t, key)
	h.waitKey(t, key, func(k api.Key) bool { return k.Failures >= n && k.State == api.StateBackoff })
}

func (h *verdictHarness) send(t *testing.T, key string) {
	t.Helper()
	ns, name, _ := strings.Cut(key, "/")
	select {
	case h.events <- event.GenericEvent{Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}}:
	case <-time.After(verdictWait):
		t.Fatalf("event for %s not taken", key)
	}
}

// sendDuringReconcile sends an event for key from inside its reconcile, as
// a status write's watch event arrives, and returns once the queue has it
// (the key is queued while it runs). It cannot fail the test from the
// reconcile's goroutine: it returns what went wrong instead.
func (h *verdictHarness) sendDuringReconcile(key string) error {
	ns, name, _ := strings.Cut(key, "/")
	select {
	case h.events <- event.GenericEvent{Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}}:
	case <-time.After(verdictWait):
		return fmt.Errorf("event for %s not taken", key)
	}
	deadline := time.Now().Add(verdictWait)
	for time.Now().Before(deadline) {
		if k, err := h.session.Key(context.Background(), h.name, key); err == nil && !k.Key.QueuedAt.IsZero() {
			return nil
		}
		time.Sleep(time.Millisecond) // polling a condition, with a deadline
	}
	return fmt.Errorf("event for %s not queued within %v", key, verdictWait)
}

func (h *verdictHarness) waitKey(t *testing.T, key string, cond func(api.Key) bool) {
	t.Helper()
	deadline := time.Now().Add(verdictWait)
	var last string
	for time.Now().Before(deadline) {
		k, err := h.session.Key(context.Background(), h.name, key)
		if err == nil {
			if cond(k.Key) {
				return
			}
			last = fmt.Sprintf("%s, %d failures", k.State, k.Failures)
		} else {
			last = err.Error()
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, with a deadline
	}
	t.Fatalf("%s: condition not met within %v; last seen: %s", key, verdictWait, last)
}

// checkRow reads the key as `kubectl backoff get` and `describe` do.
func (h *verdictHarness) checkRow(t *testing.T, key string, row verdictRow) {
	t.Helper()
	d, err := describe.Describe(context.Background(), h.session, h.name, key, nil)
	if err != nil {
		t.Fatalf("describe %s: %v", key, err)
	}
	k := d.Key.Key
	if k.State != row.state {
		t.Errorf("state = %s, want %s", k.State, row.state)
	}
	if msg := row.check(k); msg != "" {
		t.Errorf("endpoint: %s; got %+v", msg, k)
	}
	if text := d.Diagnosis.String(); !strings.Contains(text, row.says) || !strings.Contains(text, row.saysToo) {
		t.Errorf("describe says:\n%s\nwant it to contain %q and %q", text, row.says, row.saysToo)
	}
	if text := d.Diagnosis.String(); row.saysNot != "" && strings.Contains(text, row.saysNot) {
		t.Errorf("describe says:\n%s\nwant it not to contain %q", text, row.saysNot)
	}
	if row.controllerSays == "" {
		return
	}
	ds, err := describe.DiagnoseControllers(context.Background(), h.session, h.name)
	if err != nil || len(ds) != 1 {
		t.Fatalf("diagnose %s: %d diagnoses, %v", h.name, len(ds), err)
	}
	if line := ds[0].Line(); !strings.Contains(line, row.controllerSays) {
		t.Errorf("the controller's diagnosis says %q, want it to contain %q", line, row.controllerSays)
	}
}
