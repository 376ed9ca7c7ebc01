package main

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
)

// The verdict truth table of the README ("How to read a key"), row by row:
// real controller-runtime controllers on both queues and a client-go
// controller are driven into each state, and what the endpoint serves and
// what `describe` says are checked together, through the same client code
// `kubectl backoff` runs.

const verdictWait = 10 * time.Second

// verdictRow is one row of the table: a way to drive a key, and what the
// endpoint and describe must then say.
type verdictRow struct {
	name string
	// classicOnly rows show a rule of client-go's delaying queue.
	classicOnly bool
	// drive brings the key "default/k" of h to the row's state and returns
	// when it is there.
	drive func(t *testing.T, h *verdictHarness)
	state api.State
	check func(k api.Key) string // "" when the endpoint's answer is right
	says  string                 // a sentence describe's diagnosis must contain
	// controllerSays, when set, is what the controller's one-line diagnosis
	// (get's header, top's) must contain.
	controllerSays string
}

func TestVerdictTruthTable(t *testing.T) {
	const key = "default/k"
	boom := errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
	rows := []verdictRow{{
		name:  "backoff after an error",
		drive: func(t *testing.T, h *verdictHarness) { h.fail(t, key, boom, 1) },
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 1 && k.DelaySource == api.SourceItemExponential && k.LastError.Class == api.ClassTransient,
				"failures 1, item-exponential, a transient last error")
		},
		says: "Backing off 1m00s after 1 consecutive failure: per-item exponential, 1m00s·2^0",
	}, {
		name: "backoff after Requeue: true",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{Requeue: true}, nil }) //nolint:staticcheck // still honoured
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 1 })
		},
		state: api.StateBackoff,
		check: func(k api.Key) string { return want(k.LastError == nil, "no last error") },
		says:  "the last reconcile returned Requeue: true, not an error",
	}, {
		name: "scheduled by RequeueAfter",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{RequeueAfter: time.Minute}, nil })
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateScheduled })
		},
		state: api.StateScheduled,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && k.DelaySource == api.SourceRequeueAfter, "no failures, requeue-after")
		},
		says:           "Scheduled: the last reconcile asked to be called again after 1m00s (RequeueAfter)",
		controllerSays: "widget — healthy: 1 key, none failing; 1 polling (RequeueAfter)",
	}, {
		name: "running",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) { <-h.gate; return reconcile.Result{}, nil })
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateRunning })
		},
		state: api.StateRunning,
		check: func(k api.Key) string { return want(!k.StartedAt.IsZero(), "startedAt set") },
		says:  "Reconciling since",
	}, {
		name: "queued behind a busy worker",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script("default/busy", func(int) (reconcile.Result, error) { <-h.gate; return reconcile.Result{}, nil })
			h.send(t, "default/busy")
			h.waitKey(t, "default/busy", func(k api.Key) bool { return k.State == api.StateRunning })
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateQueued })
		},
		state:          api.StateQueued,
		check:          func(k api.Key) string { return want(!k.QueuedAt.IsZero(), "queuedAt set") },
		says:           "Queued",
		controllerSays: "widget — busy: 1 key queued behind 1 running reconcile; none failing",
	}, {
		name: "failed on a terminal error",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) {
				return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.size must be positive"))
			})
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateFailed })
		},
		state: api.StateFailed,
		check: func(k api.Key) string {
			return want(k.LastError != nil && k.LastError.Class == api.ClassPermanent && k.NextRetryAt.IsZero(),
				"a permanent last error, no retry")
		},
		says:           "Failed with a terminal error at",
		controllerSays: "widget — 1 key failed for good: not retried until their objects change",
	}, {
		name: "idle after a success",
		drive: func(t *testing.T, h *verdictHarness) {
			h.send(t, key) // the script-less reconcile succeeds
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateIdle && k.Reconciles == 1 })
		},
		state: api.StateIdle,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && !k.LastSuccessAt.IsZero() && k.NextRetryAt.IsZero(), "no failures, a success, nothing pending")
		},
		says: "Converged: the last reconcile succeeded at",
	}, {
		name:        "a success while an earlier retry is still pending",
		classicOnly: true,
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(n int) (reconcile.Result, error) {
				if n == 1 {
					return reconcile.Result{}, boom
				}
				return reconcile.Result{}, nil
			})
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 1 })
			h.send(t, key) // the next change, before the retry: it succeeds
			h.waitKey(t, key, func(k api.Key) bool { return k.Reconciles == 2 })
		},
		state: api.StateScheduled,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && !k.LastSuccessAt.IsZero() && !k.NextRetryAt.IsZero(),
				"no failures, a success, the first failure's retry still due")
		},
		says: "a retry scheduled by an earlier failure is still pending in the queue and runs it once more",
	}, {
		name: "a transient outage is not called permanent",
		drive: func(t *testing.T, h *verdictHarness) {
			down := apierrors.NewServiceUnavailable("inventory API is down")
			h.fail(t, key, down, 1)
			for n := 2; n <= 6; n++ { // events while it backs off: each fails again
				h.send(t, key)
				h.waitKey(t, key, func(k api.Key) bool { return k.Failures == n })
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.LastError.Class == api.ClassTransient && k.SameErrorCount >= 6, "transient, the same error 6 times")
		},
		says:           "backoff is doing its job",
		controllerSays: "widget — 1 key retrying on one transient error",
	}, {
		name: "events pre-empting the backoff again and again (a hot loop)",
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, errors.New("spec.size must be positive"), 1)
			for n := 2; n <= 4; n++ { // another writer keeps changing the object
				h.send(t, key)
				h.waitKey(t, key, func(k api.Key) bool { return k.Failures == n })
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 4 && k.Reconciles == 4, "4 failures, each its own reconcile")
		},
		says: "Watch events pre-empted this key's backoff 3 times in the last 4 attempts",
	}, {
		name: "forgotten without a retry: the pending retry keeps its time",
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, boom, 1)
			if _, err := h.session.Forget(context.Background(), api.ForgetRequest{Controller: h.name, Keys: []string{key}}); err != nil {
				t.Fatal(err)
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && k.LastReset != nil && k.LastReset.By == api.ResetForget && k.LastReset.Failures == 1,
				"failures 0, a forget that reset 1 failure")
		},
		says: "Backoff forgotten at",
	}, {
		name:        "an event does not move a sooner retry",
		classicOnly: true,
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, boom, 1)
			h.send(t, key) // runs now, fails again: 2m, but the 1m wait is sooner
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 2 })
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.EarlierRetry && k.Delay.Duration == 2*time.Minute, "earlierRetry, a 2m delay")
		},
		says: "the queue keeps the sooner time",
	}}
	for _, pq := range []bool{true, false} {
		for _, row := range rows {
			if row.classicOnly && pq {
				continue
			}
			t.Run(fmt.Sprintf("%s/pq=%v", row.name, pq), func(t *testing.T) {
				h := startVerdictController(t, pq)
				row.drive(t, h)
				h.checkRow(t, key, row)
			})
		}
	}
	t.Run("client-go gives up after its retries", func(t *testing.T) {
		h := newVerdictEndpoint(t, "sample")
		probe := instrument.NewTyped("sample", instrument.TypedOptions[string]{Registry: h.reg, UsePriorityQueue: ptr.To(false)})
		q := probe.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(
			probe.RateLimiter(instrument.NewExponentialLimiter[string](time.Millisecond, time.Second)),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "sample"}))
		t.Cleanup(q.ShutDown)
		q.Add(key)
		for range 4 { // sample-controller's handleErr with maxRetries 3
			k, _ := q.Get()
			if err := probe.Track(k, func() error { return boom }); err != nil && q.NumRequeues(k) < 3 {
				q.AddRateLimited(k)
			} else {
				q.Forget(k)
			}
			q.Done(k)
		}
		h.checkRow(t, key, verdictRow{
			state: api.StateFailed,
			check: func(k api.Key) string {
				return want(k.Failures == 0 && k.LastReset != nil && k.LastReset.By == api.ResetGaveUp && k.LastReset.Failures == 3,
					"failures 0, gave up after 3")
			},
			says: "Gave up after 3 retries",
		})
	})
}

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
	d, err := h.session.Describe(context.Background(), h.name, key, nil)
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
	if text := d.Diagnosis.String(); !strings.Contains(text, row.says) {
		t.Errorf("describe says:\n%s\nwant it to contain %q", text, row.says)
	}
	if row.controllerSays == "" {
		return
	}
	ds, err := h.session.DiagnoseControllers(context.Background(), h.name)
	if err != nil || len(ds) != 1 {
		t.Fatalf("diagnose %s: %d diagnoses, %v", h.name, len(ds), err)
	}
	if line := ds[0].Line(); !strings.Contains(line, row.controllerSays) {
		t.Errorf("the controller's diagnosis says %q, want it to contain %q", line, row.controllerSays)
	}
}
