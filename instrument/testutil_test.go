package instrument

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// This file holds helpers shared by the package's tests: a polling wait and
// the controller harness (the endpoint it reads is testendpoint_test.go's).

// eventually polls cond every few milliseconds until it reports true, and
// fails the test with cond's last message if timeout passes first.
func eventually(t testing.TB, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(3 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, msg := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v: %s", timeout, msg)
		}
		<-tick.C
	}
}

// outcomes lists the outcomes of a history, oldest first.
func outcomes(h []api.Attempt) []string {
	out := make([]string, len(h))
	for i, a := range h {
		out[i] = a.Outcome
	}
	return out
}

// checkRetryAt checks that k's nextRetryAt is its delay after a decision
// taken between from and to: nextRetryAt-delay is in [from, to]. Wall and
// monotonic clock readings may disagree by a hair, hence the millisecond.
func checkRetryAt(t testing.TB, k api.Key, from, to time.Time) {
	t.Helper()
	const slack = time.Millisecond
	decided := k.NextRetryAt.Add(-k.Delay.Duration)
	if k.NextRetryAt.IsZero() || decided.Before(from.Add(-slack)) || decided.After(to.Add(slack)) {
		t.Errorf("nextRetryAt = %v with delay %v: decided at %v, want between %v and %v",
			k.NextRetryAt, k.Delay.Duration, decided, from, to)
	}
}

// describeKey is a one-line summary of a key for failure messages.
func describeKey(k api.Key) string {
	return fmt.Sprintf("state=%s failures=%d total=%d reconciles=%d delay=%v source=%q history=%v",
		k.State, k.Failures, k.TotalFailures, k.Reconciles, k.Delay.Duration, k.DelaySource, outcomes(k.History))
}

// reqOf is the reconcile.Request of key ("namespace/name", or "name").
func reqOf(key string) reconcile.Request {
	ns, name, ok := strings.Cut(key, "/")
	if !ok {
		ns, name = "", key
	}
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}}
}

// The controller harness: a real controller-runtime controller, scripted
// per key, fed by a channel source, reported on by a test endpoint.

const (
	ctrlName = "widget"
	// waitFor bounds every wait; an hour-long backoff can never fit in it.
	waitFor = 10 * time.Second
	// longBackoff is the limiter delay of tests that look at a key mid-backoff.
	longBackoff = time.Hour
)

// step is what a scripted reconciler does on the call-th reconcile of key.
type step func(ctx context.Context, key string, call int) (reconcile.Result, error)

// scripted counts reconciles per key and runs the test's step.
type scripted struct {
	mu    sync.Mutex
	calls map[string]int
	step  step
}

func (s *scripted) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.NamespacedName.String()
	s.mu.Lock()
	s.calls[key]++
	n := s.calls[key]
	s.mu.Unlock()
	return s.step(ctx, key, n)
}

func (s *scripted) callsOf(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[key]
}

// harness is one running controller and the endpoint that reports on it.
type harness struct {
	t      *testing.T
	pq     bool
	ep     *testEndpoint
	probe  *Probe
	rec    *scripted
	events chan event.GenericEvent
}

// startController starts a controller with the priority queue (pq) or the
// classic one, whose limiter is rl (nil: the default), reconciling with st.
func startController(t *testing.T, pq bool, rl workqueue.TypedRateLimiter[reconcile.Request], st step) *harness {
	t.Helper()
	return startControllerWith(t, pq, rl, st, true)
}

// startControllerWith is startController; wrapReconciler false instruments
// only the limiter and the queue, which then infer the outcomes.
func startControllerWith(t *testing.T, pq bool, rl workqueue.TypedRateLimiter[reconcile.Request], st step, wrapReconciler bool) *harness {
	t.Helper()
	h := &harness{t: t, pq: pq, ep: newTestEndpoint(t), rec: &scripted{calls: map[string]int{}, step: st},
		events: make(chan event.GenericEvent)}
	h.probe = New(ctrlName, Options{Registry: h.ep.Registry})
	var r reconcile.TypedReconciler[reconcile.Request] = h.rec
	if wrapReconciler {
		r = h.probe.Reconciler(r)
	}
	opts := h.probe.ControllerOptions(controller.TypedOptions[reconcile.Request]{
		Reconciler:         r,
		RateLimiter:        rl,
		UsePriorityQueue:   ptr.To(pq),
		SkipNameValidation: ptr.To(true),
		Logger:             logr.Discard(),
	})
	c, err := controller.NewTypedUnmanaged(ctrlName, opts)
	if err != nil {
		t.Fatalf("NewTypedUnmanaged: %v", err)
	}
	if err := c.Watch(source.Channel(h.events, &crhandler.EnqueueRequestForObject{})); err != nil {
		t.Fatalf("Watch: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("controller Start: %v", err)
			}
		case <-time.After(waitFor):
			t.Errorf("controller did not stop within %v", waitFor)
		}
	})
	return h
}

// send delivers a watch event for key ("namespace/name").
func (h *harness) send(key string) {
	h.t.Helper()
	r := reqOf(key)
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: r.Name}}
	select {
	case h.events <- event.GenericEvent{Object: obj}:
	case <-time.After(waitFor):
		h.t.Fatalf("event for %s not taken within %v", key, waitFor)
	}
}

// wait polls the key until cond holds and returns what satisfied it.
func (h *harness) wait(key, what string, cond func(k api.KeyDetail) bool) api.KeyDetail {
	h.t.Helper()
	var last api.KeyDetail
	eventually(h.t, waitFor, func() (bool, string) {
		k, ok := h.ep.key(ctrlName, key)
		if !ok {
			return false, key + " not tracked yet, want " + what
		}
		last = k
		return cond(k), "want " + what + ", got " + describeKey(k.Key)
	})
	return last
}

// settle sends a sentinel key through the controller and waits for its
// reconcile: anything queued before it, on a single worker, was handed out
// first, and any rate-limited requeue of an earlier reconcile was decided.
func (h *harness) settle() {
	h.t.Helper()
	const sentinel = "default/sentinel"
	before := h.rec.callsOf(sentinel)
	h.send(sentinel)
	h.wait(sentinel, "one more sentinel reconcile", func(k api.KeyDetail) bool {
		return k.Reconciles == before+1 && k.State == api.StateIdle
	})
}

// forEachQueue runs fn against the priority queue and the classic queue.
func forEachQueue(t *testing.T, fn func(t *testing.T, pq bool)) {
	for _, c := range []struct {
		name string
		pq   bool
	}{{"priority-queue", true}, {"classic-queue", false}} {
		t.Run(c.name, func(t *testing.T) { fn(t, c.pq) })
	}
}

// block waits for the test to open gate, or for the controller to stop.
func block(ctx context.Context, gate <-chan struct{}) error {
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checkExponentialHistory checks that the first n attempts of h are errors
// (or outcome) delayed 5ms·2^(i-1) by the default limiter of the queue.
func checkExponentialHistory(t *testing.T, pq bool, h []api.Attempt, outcome string, n int) {
	t.Helper()
	if len(h) < n {
		t.Fatalf("history has %d attempts, want at least %d: %v", len(h), n, outcomes(h))
	}
	for i, a := range h[:n] {
		want := DefaultBaseDelay << i
		if a.Outcome != outcome {
			t.Errorf("attempt %d: outcome %q, want %q", i+1, a.Outcome, outcome)
		}
		// The classic queue's bucket may only lengthen a delay, never shorten it.
		if got := a.Delay.Duration; got != want && (pq || got < want) {
			t.Errorf("attempt %d: delay %v, want %v (5ms·2^%d)", i+1, got, want, i)
		}
	}
}

func wantDefaultSource(t *testing.T, pq bool, k api.Key) {
	t.Helper()
	if k.DelaySource == api.SourceItemExponential || (!pq && k.DelaySource == api.SourceBucket) {
		return
	}
	t.Errorf("delaySource = %q, want %q (or %q with the classic queue)", k.DelaySource, api.SourceItemExponential, api.SourceBucket)
}

func (h *harness) mustKey(key string) api.KeyDetail { return h.ep.mustKey(ctrlName, key) }
