package instrument

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestExponentialDelayIsClientGos(t *testing.T) {
	for _, p := range []struct{ base, max time.Duration }{
		{DefaultBaseDelay, DefaultMaxDelay}, {time.Millisecond, 1000 * time.Second}, {time.Nanosecond, time.Hour}, {time.Minute, time.Hour},
		// No cap: the float product itself, up to and past int64's range
		// and float64's (2^1024 is +Inf).
		{3, math.MaxInt64}, {7*time.Millisecond + 1, math.MaxInt64}, {math.MaxInt64 / 3, math.MaxInt64},
		{1 << 53, math.MaxInt64}, {1<<53 + 1, math.MaxInt64}, {1<<53 - 1, math.MaxInt64},
	} {
		cg := workqueue.NewTypedItemExponentialFailureRateLimiter[string](p.base, p.max)
		for n := range 1100 {
			if want, got := cg.When("k"), api.ExponentialDelay(p.base, p.max, n); got != want {
				t.Fatalf("base %v, max %v, requeue %d: %v, client-go %v", p.base, p.max, n, got, want)
			}
		}
	}
}

// limiterOps drives two limiters with the same random When, Forget and
// NumRequeues calls over items and fails at the first answer that differs.
func limiterOps(t *testing.T, seed uint64, items int, got, want workqueue.TypedRateLimiter[reconcile.Request], step func()) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	reqs := benchRequests(items)
	for i := range 20_000 {
		r := reqs[rng.IntN(len(reqs))]
		switch op := rng.IntN(10); {
		case op < 6:
			if g, w := got.When(r), want.When(r); g != w {
				t.Fatalf("op %d: When(%s) = %v, want %v", i, r, g, w)
			}
		case op < 8:
			got.Forget(r)
			want.Forget(r)
		default:
			if g, w := got.NumRequeues(r), want.NumRequeues(r); g != w {
				t.Fatalf("op %d: NumRequeues(%s) = %d, want %d", i, r, g, w)
			}
		}
		if step != nil && i%100 == 0 {
			step()
		}
	}
}

// TestFusedMatchesClientGo: the limiter a probe builds for itself keeps its
// counts in the store, and answers exactly as the limiter it replaces —
// also with the store far below the keys it sees, where counts of keys it
// cannot hold, or evicts, are kept aside.
func TestFusedMatchesClientGo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		maxKeys int
		tracked bool
	}{
		{"room for every key", 1000, true},
		{"store at its bound", 8, true},
		{"store at its bound, untracked", 8, false},
	} {
		t.Run("priority queue/"+tc.name, func(t *testing.T) {
			p := New("fused", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(true), MaxKeys: tc.maxKeys, DisableMetrics: true})
			if tc.tracked {
				p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
			}
			rl := p.RateLimiter(nil)
			if rl.(*rateLimiter[reconcile.Request]).fused == nil {
				t.Fatal("the probe's own limiter is not fused")
			}
			limiterOps(t, 1, 200, rl, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay), nil)
			if tc.maxKeys < 200 && p.store.spill.n.Load() == 0 {
				t.Errorf("no count was ever kept aside: the bound was not exercised")
			}
		})
		t.Run("classic queue/"+tc.name, func(t *testing.T) {
			clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
			p := New("fused", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(false), MaxKeys: tc.maxKeys, Clock: clk, DisableMetrics: true})
			if tc.tracked {
				p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
			}
			rl := p.RateLimiter(nil)
			// The limiter it replaces, on the same clock: client-go's
			// exponential limiter and a token bucket, the larger delay wins.
			want := DefaultControllerLimiter[reconcile.Request]()
			want.clock = clk
			// Time passes, so the bucket refills now and then.
			limiterOps(t, 2, 200, rl, want, func() { clk.Step(3 * time.Second) })
		})
	}
}

// A limiter the user passes in keeps its own state: it is never fused.
func TestUserLimiterNotFused(t *testing.T) {
	p := New("user", Options{Registry: NewRegistry(), DisableMetrics: true})
	for _, l := range []workqueue.TypedRateLimiter[reconcile.Request]{
		NewExponentialLimiter[reconcile.Request](time.Second, time.Minute),
		DefaultControllerLimiter[reconcile.Request](),
	} {
		if rl := p.RateLimiter(l).(*rateLimiter[reconcile.Request]); rl.fused != nil {
			t.Errorf("%T passed in was fused", l)
		}
	}
	jittered := New("jitter", Options{Registry: NewRegistry(), DisableMetrics: true, Jitter: 0.1})
	if rl := jittered.RateLimiter(nil).(*rateLimiter[reconcile.Request]); rl.fused != nil {
		t.Error("a jittered default was fused")
	}
}
