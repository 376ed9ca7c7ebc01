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
// injected) and client-go's delaying queue, on the real clock. A queue never
// runs a key before its ready time, and a failure's limiter call falls
// between its reconcile's start and the next one's; the checks rest on those
// two facts alone, so that a loaded machine, which only makes things late,
// cannot fail them. The delays are long enough that the candidate answers
// lie seconds apart.

// callLog records when each reconcile of a key began, by the reconciler's
// own clock: the independent truth the endpoint's forecast is checked against.
type callLog struct {
	mu     sync.Mutex
	starts map[string][]time.Time
}

func (c *callLog) add(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.starts == nil {
		c.starts = map[string][]time.Time{}
	}
	c.starts[key] = append(c.starts[key], time.Now())
	return len(c.starts[key])
}

func (c *callLog) at(key string, n int) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > len(c.starts[key]) {
		return time.Time{}, false
	}
	return c.starts[key][n-1], true
}

// stampSlack covers the endpoint's timestamps, kept to the microsecond.
const stampSlack = time.Millisecond

// TestNextRetryIsWhenTheQueueRunsTheKey: a key fails (retry in base), an
// event runs it again at once and it fails again (2·base). The delaying
// queue keeps the sooner wait: the key runs base after the first failure,
// and the second failure's wait is dropped. The priority queue moved the
// waiting key to ready on the event: its wait is gone and the key runs 2·base
// after the second failure.
//
// The event must come while the first wait runs: when the test was too slow
// to send it within base (a stalled test goroutine), the retry ran first and
// the round proves nothing, so it is played again on a new key.
func TestNextRetryIsWhenTheQueueRunsTheKey(t *testing.T) {
	// The answers are at least base apart, and a check on the classic
	// queue's run could only be failed by a stall of base.
	const base = 3 * time.Second
	forEachQueue(t, func(t *testing.T, pq bool) {
		var calls callLog
		failure := errors.New("connection refused")
		rl := NewExponentialLimiter[reconcile.Request](base, time.Minute)
		h := startController(t, pq, rl, func(ctx context.Context, key string, _ int) (reconcile.Result, error) {
			if n := calls.add(key); n >= 4 {
				return reconcile.Result{}, nil // done: the key goes idle
			}
			return reconcile.Result{}, failure
		})
		deadline := time.Now().Add(3 * waitFor)
		for round := 1; ; round++ {
			if time.Now().After(deadline) {
				t.Fatalf("in %d rounds the test never sent its event within %v of a failure", round-1, base)
			}
			if nextRetryRound(t, h, &calls, fmt.Sprintf("default/w%d", round), base, pq) {
				return
			}
		}
	})
}

// nextRetryRound plays TestNextRetryIsWhenTheQueueRunsTheKey's round on key;
// false when the test was too slow for it to prove anything.
func nextRetryRound(t *testing.T, h *harness, calls *callLog, key string, base time.Duration, pq bool) bool {
	t.Helper()
	h.send(key)
	k := h.wait(key, "backoff after the first failure", func(k api.KeyDetail) bool {
		return k.Failures >= 1 && k.State == api.StateBackoff
	})
	if _, ran := calls.at(key, 2); ran || k.Failures != 1 {
		return false // the retry ran before the test read the first failure
	}
	firstWait := k.NextRetryAt // the classic queue keeps it
	h.send(key)                // an event while the retry waits
	k = h.wait(key, "the second failure's delay", func(k api.KeyDetail) bool { return k.Failures >= 2 })
	start1, _ := calls.at(key, 1)
	start2, _ := calls.at(key, 2)
	if !start2.Before(firstWait.Add(-stampSlack)) || k.Failures != 2 {
		return false // the retry, not the event, ran the key; or the test missed the second failure
	}
	// between says that the limiter call a wait of d before at was made in
	// [from, to]: a forecast is the one it claims to be.
	between := func(what string, at time.Time, d time.Duration, from, to time.Time) {
		t.Helper()
		if f := at.Add(-d); f.Before(from.Add(-stampSlack)) || f.After(to.Add(stampSlack)) {
			t.Errorf("%s: nextRetryAt %s less %v is %s, want a failure of [%s, %s]", what,
				at.Format("15:04:05.000"), d, f.Format("15:04:05.000"), from.Format("15:04:05.000"), to.Format("15:04:05.000"))
		}
	}
	// notBefore says the reconcile began no sooner than the forecast: a
	// queue never runs a key early. Late is the machine's doing.
	notBefore := func(what string, began, forecast time.Time) {
		t.Helper()
		if began.Before(forecast.Add(-stampSlack)) {
			t.Errorf("%s began %v before the nextRetryAt the endpoint gave (%s)", what, forecast.Sub(began), forecast.Format("15:04:05.000"))
		}
	}
	if pq {
		if k.EarlierRetry {
			t.Errorf("priority queue: earlierRetry set, but the event consumed the first wait")
		}
		// Had the queue kept the first wait, it would run the key at
		// firstWait, 2·base before this forecast: notBefore fails.
		third := waitCall(t, calls, key, 3)
		between("priority queue, the second failure's wait", k.NextRetryAt, 2*base, start2, third)
		notBefore("third reconcile", third, k.NextRetryAt)
		return true
	}
	if !k.EarlierRetry || k.Delay.Duration != 2*base || !k.NextRetryAt.Equal(firstWait) {
		t.Errorf("classic queue: earlierRetry = %v, delay = %v, nextRetryAt %s; want true, %v and the first wait's %s",
			k.EarlierRetry, k.Delay.Duration, k.NextRetryAt.Format("15:04:05.000"), 2*base, firstWait.Format("15:04:05.000"))
	}
	between("classic queue, the first failure's wait", k.NextRetryAt, base, start1, start2)
	third := waitCall(t, calls, key, 3)
	notBefore("third reconcile", third, k.NextRetryAt)
	// Had the queue kept the later wait, the third run would come 2·base
	// after the second failure, no sooner than that after the second run
	// began; the first wait ends at most base after it began.
	if d := third.Sub(start2); d >= 2*base {
		t.Errorf("classic queue: the third reconcile began %v after the second, want it from the first failure's wait, sooner than the second's %v", d, 2*base)
	}
	// The queue keeps one wait per key (client-go's delaying queue
	// inserts the sooner of two ready times): the second failure's wait
	// was dropped, and the third failure's own decides the next retry.
	k = h.wait(key, "the third failure's delay", func(k api.KeyDetail) bool { return k.Failures >= 3 })
	if k.EarlierRetry {
		t.Errorf("classic queue: earlierRetry still set after the retry it named ran")
	}
	between("classic queue, the third failure's wait", k.NextRetryAt, 4*base, third, time.Now())
	return true
}

// waitCall waits for the n-th reconcile of key to begin and returns when it did.
func waitCall(t *testing.T, c *callLog, key string, n int) time.Time {
	t.Helper()
	var at time.Time
	eventually(t, waitFor, func() (bool, string) {
		var ok bool
		at, ok = c.at(key, n)
		return ok, fmt.Sprintf("reconcile %d of %s has not begun", n, key)
	})
	return at
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
