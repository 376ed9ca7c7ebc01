package instrument

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// These tests check that nextRetryAt is when the real queue runs the key,
// against controller-runtime's priority queue (whose clock cannot be
// injected) and client-go's delaying queue, on the real clock. The delays are
// long enough that the two candidate answers lie far apart, so the check
// holds under load without waiting "long enough" anywhere.

// callLog records when each reconcile of a key began, by the reconciler's
// own clock: the independent truth the endpoint's forecast is checked against.
type callLog struct {
	mu     sync.Mutex
	starts []time.Time
}

func (c *callLog) add() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.starts = append(c.starts, time.Now())
	return len(c.starts)
}

func (c *callLog) at(n int) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > len(c.starts) {
		return time.Time{}, false
	}
	return c.starts[n-1], true
}

// TestNextRetryIsWhenTheQueueRunsTheKey: a key fails (retry in base), an
// event runs it again at once and it fails again (2·base). The delaying
// queue keeps the sooner wait: the key runs base after the first failure,
// and once more 2·base after the second. The priority queue moved the
// waiting key to ready on the event: its wait is gone and the key runs 2·base
// after the second failure.
func TestNextRetryIsWhenTheQueueRunsTheKey(t *testing.T) {
	const base = time.Second // long enough that a loaded CI machine starts the run within slack
	const slack = base / 2   // the two answers are at least base apart
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key = "default/w1"
		var calls callLog
		failure := errors.New("connection refused")
		gate := make(chan struct{})
		rl := NewExponentialLimiter[reconcile.Request](base, time.Minute)
		h := startController(t, pq, rl, func(ctx context.Context, _ string, _ int) (reconcile.Result, error) {
			if n := calls.add(); n >= 4 {
				return reconcile.Result{}, block(ctx, gate)
			}
			return reconcile.Result{}, failure
		})
		t.Cleanup(func() { close(gate) })
		h.send(key)
		h.wait(key, "backoff after the first failure", func(k api.KeyDetail) bool {
			return k.Failures == 1 && k.State == api.StateBackoff
		})
		h.send(key) // an event while the retry waits
		k := h.wait(key, "the second failure's delay", func(k api.KeyDetail) bool { return k.Failures == 2 })
		first, _ := calls.at(1)
		if pq {
			if k.EarlierRetry {
				t.Errorf("priority queue: earlierRetry set, but the event consumed the first wait")
			}
		} else if !k.EarlierRetry || k.Delay.Duration != 2*base {
			t.Errorf("classic queue: earlierRetry = %v, delay = %v; want true and %v (the first wait is sooner)",
				k.EarlierRetry, k.Delay.Duration, 2*base)
		}
		third := waitCall(t, &calls, 3)
		checkRan(t, "third reconcile", third, k.NextRetryAt, slack)
		if !pq {
			if d := k.NextRetryAt.Sub(first); d < base-slack || d > base+slack {
				t.Errorf("classic queue: next retry %v after the first failure, want about %v", d, base)
			}
			// The second failure's wait still fires: the fourth run comes
			// from it, not from the third failure's 4·base.
			k = h.wait(key, "the third failure's delay", func(k api.KeyDetail) bool { return k.Failures == 3 })
			checkRan(t, "fourth reconcile", waitCall(t, &calls, 4), k.NextRetryAt, slack)
		}
	})
}

// waitCall waits for the n-th reconcile to begin and returns when it did.
func waitCall(t *testing.T, c *callLog, n int) time.Time {
	t.Helper()
	var at time.Time
	eventually(t, waitFor, func() (bool, string) {
		var ok bool
		at, ok = c.at(n)
		return ok, fmt.Sprintf("reconcile %d has not begun", n)
	})
	return at
}

// checkRan checks that a reconcile began at the forecast time, within slack.
func checkRan(t *testing.T, what string, began, forecast time.Time, slack time.Duration) {
	t.Helper()
	if d := began.Sub(forecast); d < -slack/10 || d > slack {
		t.Errorf("%s began %v after the nextRetryAt the endpoint gave (%v), want within [%v, %v]",
			what, d, forecast.Format("15:04:05.000"), -slack/10, slack)
	}
}

// TestClientGoGiveUpIsFailed drives client-go's canonical handleErr: retry a
// failing key while NumRequeues < maxRetries, then Forget it without a
// requeue. The queue is empty; the key is dropped until the next change.
func TestClientGoGiveUpIsFailed(t *testing.T) {
	const key, maxRetries = "default/foo", 3
	ep := newTestEndpoint(t)
	probe := NewTyped("foo", TypedOptions[string]{Registry: ep.Registry, UsePriorityQueue: ptr.To(false)})
	queue := probe.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(
		probe.RateLimiter(NewExponentialLimiter[string](time.Millisecond, time.Second)),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "foo"}))
	t.Cleanup(queue.ShutDown)
	failure := errors.New("sync default/foo: quota exceeded")
	worker := func() {
		k, shutdown := queue.Get()
		if shutdown {
			return
		}
		defer queue.Done(k)
		if err := probe.Track(k, func() error { return failure }); err == nil {
			queue.Forget(k)
		} else if queue.NumRequeues(k) < maxRetries {
			queue.AddRateLimited(k)
		} else {
			queue.Forget(k) // handleErr gives up
		}
	}
	queue.Add(key)
	for range maxRetries + 1 {
		worker()
	}
	if n := queue.Len(); n != 0 {
		t.Fatalf("queue length = %d, want 0: the controller gave up", n)
	}
	k := ep.mustKey("foo", key)
	if k.State != api.StateFailed || k.Failures != 0 || k.TotalFailures != maxRetries+1 {
		t.Errorf("state %s, failures %d, totalFailures %d; want failed, 0, %d", k.State, k.Failures, k.TotalFailures, maxRetries+1)
	}
	if r := k.LastReset; r == nil || r.By != api.ResetGaveUp || r.Failures != maxRetries {
		t.Errorf("lastReset = %+v, want by %s after %d failures", r, api.ResetGaveUp, maxRetries)
	}
	if !k.NextRetryAt.IsZero() {
		t.Errorf("nextRetryAt = %v, want none: nothing will retry the key", k.NextRetryAt)
	}

	// The next change runs it again, and a success is not a give-up.
	queue.Add(key)
	k2, _ := queue.Get()
	_ = probe.Track(k2, func() error { return nil })
	queue.Forget(k2)
	queue.Done(k2)
	if k = ep.mustKey("foo", key); k.State != api.StateIdle || k.LastReset == nil || k.LastReset.By != api.ResetGaveUp {
		t.Errorf("after a success: state %s, lastReset %+v; want idle, the give-up still on record", k.State, k.LastReset)
	}
}
