package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
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

// This file holds helpers shared by the package's tests: an endpoint served
// over real HTTP, decoded into the wire types, and a polling wait.

// testEndpoint is an httptest server on NewHandler with a fresh Registry: tests
// build probes in Registry and read them back as a client would.
type testEndpoint struct {
	t        testing.TB
	Registry *Registry
	base     string // the server URL with DefaultPrefix
}

// newTestEndpoint starts the endpoint; it is closed when the test ends.
func newTestEndpoint(t testing.TB) *testEndpoint {
	t.Helper()
	reg := NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(NewHandler(HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	return &testEndpoint{t: t, Registry: reg, base: srv.URL + api.DefaultPrefix}
}

// do sends a request to path (relative to the prefix) with body encoded as
// JSON, and decodes a 2xx response into out. It returns the status code and,
// for an error status, the decoded error body.
//
// A read answered 429 is sent again after its Retry-After, as a client
// does, for up to waitFor: the endpoint keeps its readers to a fifth of a
// core, and on a loaded machine (-race, 2 cores, a real controller beside
// it) reads stretched past ~100ms make it answer a harness polling every
// few milliseconds busy, as it should (TestKeysStateFilterUnderChurn got
// such a 429 from its own server).
func (e *testEndpoint) do(method, path string, body, out any) (int, api.ErrorBody) {
	e.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		code, eb, retry := e.doOnce(method, path, body, out)
		if code != http.StatusTooManyRequests || method != http.MethodGet || time.Now().After(deadline) {
			return code, eb
		}
		time.Sleep(retry) // what the endpoint asked for
	}
}

// doOnce is one request of do; for a 429, retry is its Retry-After.
func (e *testEndpoint) doOnce(method, path string, body, out any) (code int, eb api.ErrorBody, retry time.Duration) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatalf("encode %s body: %v", path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if got, want := resp.Header.Get("Content-Type"), "application/json"; got != want {
		e.t.Fatalf("%s %s: Content-Type = %q, want %q", method, path, got, want)
	}
	dec := json.NewDecoder(resp.Body)
	if resp.StatusCode/100 != 2 {
		var er api.ErrorResponse
		if err := dec.Decode(&er); err != nil {
			e.t.Fatalf("%s %s: status %d, decode error body: %v", method, path, resp.StatusCode, err)
		}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 && secs <= 5 {
			retry = time.Duration(secs) * time.Second
		} else {
			retry = time.Second
		}
		return resp.StatusCode, er.Error, retry
	}
	if out != nil {
		// Start from zero: decoding into a used value keeps the fields the new
		// response omits (omitempty), mixing two responses.
		reflect.ValueOf(out).Elem().SetZero()
		if err := dec.Decode(out); err != nil {
			e.t.Fatalf("%s %s: decode: %v", method, path, err)
		}
	}
	return resp.StatusCode, api.ErrorBody{}, 0
}

// get GETs path into out and fails the test unless the status is 200.
func (e *testEndpoint) get(path string, out any) {
	e.t.Helper()
	if code, eb := e.do(http.MethodGet, path, nil, out); code != http.StatusOK {
		e.t.Fatalf("GET %s: status %d (%s: %s), want 200", path, code, eb.Reason, eb.Message)
	}
}

// key returns controller's key with its history, and false if the endpoint
// does not know it (yet).
func (e *testEndpoint) key(controller, key string) (api.KeyDetail, bool) {
	e.t.Helper()
	var k api.KeyDetail
	path := "v1/key?" + url.Values{"controller": {controller}, "key": {key}}.Encode()
	switch code, eb := e.do(http.MethodGet, path, nil, &k); code {
	case http.StatusOK:
		return k, true
	case http.StatusNotFound:
		return api.KeyDetail{}, false
	default:
		e.t.Fatalf("GET %s: status %d (%s: %s)", path, code, eb.Reason, eb.Message)
		return api.KeyDetail{}, false
	}
}

// mustKey is key for a key that must exist.
func (e *testEndpoint) mustKey(controller, key string) api.KeyDetail {
	e.t.Helper()
	k, ok := e.key(controller, key)
	if !ok {
		e.t.Fatalf("controller %q: key %q not found", controller, key)
	}
	return k
}

// controller returns the v1/controllers entry named name.
func (e *testEndpoint) controller(name string) api.Controller {
	e.t.Helper()
	var list api.ControllerList
	e.get("v1/controllers", &list)
	for _, c := range list.Controllers {
		if c.Name == name {
			return c
		}
	}
	e.t.Fatalf("v1/controllers does not list %q (got %d controllers)", name, len(list.Controllers))
	return api.Controller{}
}

// forget POSTs req to v1/forget and fails the test unless the status is 200.
func (e *testEndpoint) forget(req api.ForgetRequest) api.ForgetResponse {
	e.t.Helper()
	var resp api.ForgetResponse
	if code, eb := e.do(http.MethodPost, "v1/forget", req, &resp); code != http.StatusOK {
		e.t.Fatalf("POST v1/forget: status %d (%s: %s), want 200", code, eb.Reason, eb.Message)
	}
	return resp
}

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
