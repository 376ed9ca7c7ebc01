package instrument

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
)

// These tests instrument a controller written the sample-controller way: a
// classic rate-limiting queue of strings and a worker loop that runs each sync
// through Track.

// sampleController is sample-controller's worker loop, instrumented as the
// package documentation shows.
type sampleController struct {
	probe *TypedProbe[string]
	queue workqueue.TypedRateLimitingInterface[string]
	sync  func(key string) error
}

func newSampleController(t *testing.T, reg *Registry, clk *clocktesting.FakePassiveClock, sync func(key string) error) *sampleController {
	opts := TypedOptions[string]{Registry: reg, UsePriorityQueue: ptr.To(false)}
	if clk != nil {
		opts.Clock = clk
	}
	probe := NewTyped("foo", opts)
	queue := probe.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(
		probe.RateLimiter(nil), workqueue.TypedRateLimitingQueueConfig[string]{Name: "foo"}))
	t.Cleanup(queue.ShutDown)
	return &sampleController{probe: probe, queue: queue, sync: sync}
}

// processNextWorkItem is sample-controller's, with Track around the sync.
func (c *sampleController) processNextWorkItem() bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.probe.Track(key, func() error { return c.sync(key) }); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// failingSync fails each key as often as fails says, then succeeds.
type failingSync struct {
	mu    sync.Mutex
	fails map[string]int
	calls map[string]int
}

func (f *failingSync) sync(key string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[key]++
	if f.calls[key] <= f.fails[key] {
		return fmt.Errorf("sync %s: attempt %d failed", key, f.calls[key])
	}
	return nil
}

func TestClientGoStepByStep(t *testing.T) {
	const key = "default/foo"
	ep := newTestEndpoint(t)
	// The store reads a fake clock, so what it reports does not move while the
	// test looks; the queue waits out the real (millisecond) delays.
	clk := clocktesting.NewFakePassiveClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	script := []error{errors.New("connection refused"), errors.New("connection refused"), errors.New("quota exceeded"), nil}
	var calls int
	c := newSampleController(t, ep.Registry, clk, func(string) error {
		calls++
		return script[calls-1]
	})

	c.queue.Add(key)
	added := clk.Now()
	if k := ep.mustKey("foo", key); k.State != api.StateQueued || !k.LastEventAt.Equal(added) || !k.QueuedAt.Equal(added) {
		t.Fatalf("after Add: got %s, lastEventAt %v, queuedAt %v; want queued since %v", describeKey(k.Key), k.LastEventAt, k.QueuedAt, added)
	}
	for i, err := range script {
		clk.SetTime(clk.Now().Add(time.Minute)) // every pending retry is due
		c.processNextWorkItem()
		now := clk.Now()
		k := ep.mustKey("foo", key)
		if k.Reconciles != i+1 || len(k.History) != i+1 {
			t.Fatalf("step %d: got %s; want %d reconciles in the history", i, describeKey(k.Key), i+1)
		}
		if err == nil {
			if k.State != api.StateIdle || k.Failures != 0 || !k.LastSuccessAt.Equal(now) || k.History[i].Outcome != api.OutcomeSuccess {
				t.Errorf("step %d (success): got %s, lastSuccessAt %v; want idle, failures 0, success at %v",
					i, describeKey(k.Key), k.LastSuccessAt, now)
			}
			if !k.NextRetryAt.IsZero() || !k.FirstFailureAt.IsZero() {
				t.Errorf("step %d (success): nextRetryAt %v, firstFailureAt %v; want unset", i, k.NextRetryAt, k.FirstFailureAt)
			}
			continue
		}
		wantDelay := DefaultBaseDelay << i
		if k.State != api.StateBackoff || k.Failures != i+1 || k.TotalFailures != i+1 {
			t.Errorf("step %d: got %s; want backoff with %d failures", i, describeKey(k.Key), i+1)
		}
		if k.Delay.Duration != wantDelay || k.DelaySource != api.SourceItemExponential || !k.NextRetryAt.Equal(now.Add(wantDelay)) {
			t.Errorf("step %d: delay %v from %q, retry at %v; want %v from %q at %v",
				i, k.Delay.Duration, k.DelaySource, k.NextRetryAt, wantDelay, api.SourceItemExponential, now.Add(wantDelay))
		}
		if a := k.History[i]; a.Outcome != api.OutcomeError || a.Error != err.Error() || a.Delay.Duration != wantDelay || !a.At.Equal(now) {
			t.Errorf("step %d: attempt %+v, want error %q delayed %v at %v", i, a, err, wantDelay, now)
		}
		if k.LastError == nil || k.LastError.Message != err.Error() {
			t.Errorf("step %d: lastError %+v, want %q", i, k.LastError, err)
		}
		// Once the delay has passed, the key is due: queued, not backing off.
		clk.SetTime(now.Add(wantDelay))
		if k := ep.mustKey("foo", key); k.State != api.StateQueued {
			t.Errorf("step %d: at nextRetryAt, state %s, want %s", i, k.State, api.StateQueued)
		}
	}
	if n := c.queue.NumRequeues(key); n != 0 {
		t.Errorf("NumRequeues = %d after the success, want 0", n)
	}
}

func TestClientGoSameErrorCount(t *testing.T) {
	const key = "default/foo"
	ep := newTestEndpoint(t)
	errs := []string{"a", "a", "b", "b", "b", "a"}
	wantSame := []int{1, 2, 1, 2, 3, 1}
	var calls int
	c := newSampleController(t, ep.Registry, nil, func(string) error {
		calls++
		return errors.New(errs[calls-1])
	})
	c.queue.Add(key)
	for i := range errs {
		c.processNextWorkItem()
		if k := ep.mustKey("foo", key); k.SameErrorCount != wantSame[i] || k.LastError == nil || k.LastError.Message != errs[i] {
			t.Errorf("attempt %d: lastError %+v ×%d, want %q ×%d", i+1, k.LastError, k.SameErrorCount, errs[i], wantSame[i])
		}
	}
}

func TestClientGoPanicIsRecordedAndReraised(t *testing.T) {
	const key = "default/foo"
	ep := newTestEndpoint(t)
	type boom struct{ reason string }
	value := &boom{"nil map"}
	c := newSampleController(t, ep.Registry, nil, func(string) error { panic(value) })
	c.queue.Add(key)

	recovered := func() (r any) {
		defer func() { r = recover() }()
		c.processNextWorkItem()
		return nil
	}()
	if recovered != value {
		t.Fatalf("recovered %v, want the sync's own panic value %v re-raised", recovered, value)
	}
	k := ep.mustKey("foo", key)
	want := fmt.Sprintf("panic: %v [recovered]", value)
	if k.LastError == nil || k.LastError.Message != want || k.TotalFailures != 1 || k.Reconciles != 1 {
		t.Errorf("got %s, lastError %+v; want one failure %q", describeKey(k.Key), k.LastError, want)
	}
	if got := outcomes(k.History); !slices.Equal(got, []string{api.OutcomeError}) {
		t.Errorf("history = %v, want one %q", got, api.OutcomeError)
	}
	if k.State == api.StateRunning || !k.StartedAt.IsZero() {
		t.Errorf("state %s, startedAt %v: a panicked sync is not running any more", k.State, k.StartedAt)
	}
	if n := c.queue.Len(); n != 0 {
		t.Errorf("queue length %d: the worker never requeued, and Done ran", n)
	}
}

func TestClientGoConcurrentWorkers(t *testing.T) {
	ep := newTestEndpoint(t)
	f := &failingSync{fails: map[string]int{}, calls: map[string]int{}}
	for i := range 12 {
		f.fails[fmt.Sprintf("ns/k%02d", i)] = i % 5
	}
	c := newSampleController(t, ep.Registry, nil, f.sync)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for c.processNextWorkItem() {
			}
		})
	}
	t.Cleanup(func() { c.queue.ShutDown(); wg.Wait() })
	for key := range f.fails {
		c.queue.Add(key)
	}
	idle := url.Values{"controller": {"foo"}, "state": {string(api.StateIdle)}, "sort": {api.SortKey}}.Encode()
	var list api.KeyList
	eventually(t, waitFor, func() (bool, string) {
		ep.get("v1/keys?"+idle, &list)
		return list.Matched == len(f.fails), fmt.Sprintf("%d of %d keys idle", list.Matched, len(f.fails))
	})
	for _, k := range list.Items {
		wantFailures := f.fails[k.Key]
		if k.Failures != 0 || k.TotalFailures != wantFailures || k.Reconciles != wantFailures+1 {
			t.Errorf("%s: got %s; want totalFailures %d, reconciles %d", k.Key, describeKey(k), wantFailures, wantFailures+1)
		}
	}
	if ctl := ep.controller("foo"); ctl.Counts[api.StateIdle] != len(f.fails) || ctl.Keys != len(f.fails) || ptr.Deref(ctl.QueueDepth, -1) != 0 {
		t.Errorf("controller: keys %d, counts %v, queue depth %v; want %d idle, empty queue",
			ctl.Keys, ctl.Counts, ptr.Deref(ctl.QueueDepth, -1), len(f.fails))
	}
}
