package instrument

import (
	"context"
	"fmt"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// BenchmarkControllerOverhead is what the probe costs a controller: two real
// controller-runtime controllers (4 workers, 1,000 keys failing on every
// reconcile), one bare and one instrumented as documented (ControllerOptions,
// the Reconciler decorator, the probe's own limiter), run by turns — one
// segment of reconciles each per iteration, the other one paused — so that
// both see the same load from whatever else runs on the machine. It reports
// the median over iterations of both throughputs and of their ratio (goal
// ≥ 0.97); run it with -benchtime=Nx, N pairs of segments. Every reconcile
// goes through the limiter's When (on the priority queue, under the queue's
// lock). The limiters are client-go's exponential one with nanosecond delays
// on both sides, so that the controller runs at full speed instead of
// waiting out its backoffs (the classic default's token bucket would cap
// both at 10 reconciles a second).
func BenchmarkControllerOverhead(b *testing.B) {
	const keys, segment = 1_000, 20_000
	for _, pq := range []bool{true, false} {
		b.Run(fmt.Sprintf("priority-queue=%v", pq), func(b *testing.B) {
			bare := startOverheadController(b, pq, false, keys)
			defer bare.stop()
			probed := startOverheadController(b, pq, true, keys)
			defer probed.stop()
			byTurns(b, bare, probed, segment, "probed-rec/s")
		})
	}
}

// BenchmarkControllerBudget measures what BenchmarkControllerOverhead's
// goal leaves the probe: the same two controllers, both bare, the
// second's reconciler busy-waiting for spin on every reconcile and
// touching no shared memory — a fixed cost added to each reconcile, as
// the probe's records are (BenchmarkReconcileRecords). The ratio a spin gives is the
// ratio a probe costing as much would give; the goal's ≥ 0.97 is met by a
// probe whose records cost less than the spin that gives 0.97.
func BenchmarkControllerBudget(b *testing.B) {
	const keys, segment = 1_000, 20_000
	for _, pq := range []bool{true, false} {
		for _, spin := range []time.Duration{100 * time.Nanosecond, 300 * time.Nanosecond} {
			b.Run(fmt.Sprintf("priority-queue=%v/spin=%v", pq, spin), func(b *testing.B) {
				bare := startOverheadController(b, pq, false, keys)
				defer bare.stop()
				spun := startOverheadController(b, pq, false, keys)
				defer spun.stop()
				spun.gate.spin = spin
				byTurns(b, bare, spun, segment, "spun-rec/s")
			})
		}
	}
}

// byTurns runs bare and other by turns, segment reconciles each per
// iteration, and reports the medians of both throughputs (other's as
// unit) and of their ratio.
func byTurns(b *testing.B, bare, other *overheadController, segment int, unit string) {
	var bares, others, ratios []float64
	for b.Loop() {
		// By turns which goes first, so that neither always runs right
		// after the other has warmed the caches.
		first, second := bare, other
		if len(ratios)%2 == 1 {
			first, second = other, bare
		}
		first.run(segment)
		second.run(segment)
		bares, others = append(bares, bare.last), append(others, other.last)
		ratios = append(ratios, other.last/bare.last)
	}
	b.ReportMetric(median(bares), "bare-rec/s")
	b.ReportMetric(median(others), unit)
	b.ReportMetric(median(ratios), "ratio")
}

// overheadController is a running controller whose reconciler can be paused.
type overheadController struct {
	gate *gatedReconciler
	stop func()
	rate func(n int) float64
	last float64 // reconciles per second of the last run
}

// run lets the controller do n reconciles, then pauses it.
func (c *overheadController) run(n int) {
	c.gate.set(true)
	c.last = c.rate(n)
	c.gate.set(false)
}

// startOverheadController starts a controller, bare or probed, lets every
// key run once, and pauses it.
func startOverheadController(b *testing.B, pq, probed bool, keys int) *overheadController {
	const base, maxDelay = time.Nanosecond, time.Microsecond
	rec := newCountingReconciler()
	gate := newGatedReconciler(rec)
	gate.set(true)
	opts := controller.TypedOptions[reconcile.Request]{
		Reconciler:              gate,
		RateLimiter:             workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](base, maxDelay),
		UsePriorityQueue:        ptr.To(pq),
		MaxConcurrentReconciles: 4,
		SkipNameValidation:      ptr.To(true),
		Logger:                  logr.Discard(),
	}
	if probed {
		p := New("overhead", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(pq), DisableMetrics: true})
		opts.Reconciler, opts.RateLimiter = p.Reconciler(gate), nil
		opts = p.ControllerOptions(opts)
		// The probe's own limiter, fused into its store, with the bare
		// side's delays (and no token bucket on the classic queue).
		f := opts.RateLimiter.(*rateLimiter[reconcile.Request]).fused
		f.base, f.max, f.reserve = base, maxDelay, nil
	}
	// Labelled, so that a CPU profile tells the two apart:
	// go tool pprof -tagfocus=side=probed.
	var stop func()
	var rate func(int) float64
	side := map[bool]string{false: "bare", true: "probed"}[probed]
	pprof.Do(context.Background(), pprof.Labels("side", side), func(context.Context) {
		stop, rate = startLoadController(b, opts, rec, keys)
	})
	// Stopping waits for the workers: let the waiting ones finish.
	c := &overheadController{gate: gate, stop: func() { gate.set(true); stop() }, rate: rate}
	c.run(keys) // every key seen once, the queue warm
	return c
}

// gatedReconciler runs its inner reconciler only while open: closed, the
// workers wait, and the controller costs nothing. Open, it busy-waits for
// spin first (BenchmarkControllerBudget).
type gatedReconciler struct {
	inner reconcile.Reconciler
	open  atomic.Bool
	mu    sync.Mutex
	cond  *sync.Cond
	spin  time.Duration
	clock monoClock
}

func newGatedReconciler(inner reconcile.Reconciler) *gatedReconciler {
	g := &gatedReconciler{inner: inner, clock: newMonoClock()}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gatedReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if !g.open.Load() {
		g.mu.Lock()
		for !g.open.Load() {
			g.cond.Wait()
		}
		g.mu.Unlock()
	}
	if g.spin > 0 {
		for until := g.clock.nanos() + int64(g.spin); g.clock.nanos() < until; {
		}
	}
	return g.inner.Reconcile(ctx, req)
}

func (g *gatedReconciler) set(open bool) {
	g.mu.Lock()
	g.open.Store(open)
	g.mu.Unlock()
	g.cond.Broadcast()
}

// median of xs (which it sorts).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

// BenchmarkLimiterOverhead compares the limiter calls of the goals side by
// side, by turns in each iteration as BenchmarkControllerOverhead does, and
// reports the median ratio of the probed limiter's time to the bare one's
// (goals: ≤ 1.2 for When on failing keys on the priority queue, ≤ 1.3 for
// When+Forget from two goroutines on both queues):
//
//   - when-failing-pq: When alone on keys that keep failing, the priority
//     queue's default (client-go's exponential limiter) against the probe's
//     own (fused), and, decorated, against the same limiter passed in.
//   - when-forget-parallel: When then Forget from two goroutines, on keys
//     of their own, the classic queue's default and the priority queue's.
func BenchmarkLimiterOverhead(b *testing.B) {
	type limiter = workqueue.TypedRateLimiter[reconcile.Request]
	exp := func() limiter {
		return workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay)
	}
	cases := []struct {
		name          string
		bare, probed  func() limiter
		forget        bool
		goroutines    int
		warmForgotten bool
	}{
		{"when-failing-pq", exp, func() limiter { return benchRealProbe(true, true).RateLimiter(nil) }, false, 1, false},
		{"when-failing-pq-decorated", exp, func() limiter {
			return benchRealProbe(true, true).RateLimiter(NewExponentialLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay))
		}, false, 1, false},
		{"when-forget-parallel", func() limiter { return workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]() },
			func() limiter { return benchRealProbe(false, true).RateLimiter(nil) }, true, 2, true},
		{"when-forget-parallel-pq", exp, func() limiter { return benchRealProbe(true, true).RateLimiter(nil) }, true, 2, true},
	}
	reqs := benchRequests(benchKeys)
	const segment = 20_000 // calls per segment, over all goroutines
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			bare, probed := tc.bare(), tc.probed()
			for _, rl := range []limiter{bare, probed} {
				if tc.warmForgotten {
					benchWarm(rl, reqs)
				} else {
					for _, r := range reqs {
						rl.When(r)
					}
				}
			}
			run := func(rl limiter, from int) time.Duration {
				var wg sync.WaitGroup
				t0 := time.Now()
				for g := range tc.goroutines {
					wg.Go(func() {
						// Each goroutine on keys of its own, as workers hold
						// different keys.
						i := from + g*len(reqs)/tc.goroutines
						for range segment / tc.goroutines {
							r := reqs[i%len(reqs)]
							rl.When(r)
							if tc.forget {
								rl.Forget(r)
							}
							i++
						}
					})
				}
				wg.Wait()
				return time.Since(t0)
			}
			var ratios, bareNs, probedNs []float64
			from := 0
			for b.Loop() {
				var tb, tp time.Duration
				if len(ratios)%2 == 0 {
					tb, tp = run(bare, from), run(probed, from)
				} else {
					tp, tb = run(probed, from), run(bare, from)
				}
				from += segment / tc.goroutines
				ratios = append(ratios, float64(tp)/float64(tb))
				bareNs = append(bareNs, float64(tb.Nanoseconds())/segment)
				probedNs = append(probedNs, float64(tp.Nanoseconds())/segment)
			}
			b.ReportMetric(median(bareNs), "bare-ns/call")
			b.ReportMetric(median(probedNs), "probed-ns/call")
			b.ReportMetric(median(ratios), "ratio")
		})
	}
}

// BenchmarkReconcileRecords is what the probe records for one failing
// reconcile of a documented controller, without the controller: the
// queue's handout (dequeued), the reconciler decorator (start, outcome)
// and the fused limiter's When, on 1,000 keys in turn, one goroutine. It
// is BenchmarkControllerOverhead's gap without that benchmark's noise
// (the store alone is the gap: with its records made no-ops the probed
// controller runs as fast as the bare one), to attribute it with
// -cpuprofile. The classic queue's limiter runs without its token bucket,
// as in BenchmarkControllerOverhead.
func BenchmarkReconcileRecords(b *testing.B) {
	for _, pq := range []bool{true, false} {
		b.Run(fmt.Sprintf("priority-queue=%v", pq), func(b *testing.B) {
			p := New("records", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(pq), DisableMetrics: true})
			rl := p.RateLimiter(nil)
			rl.(*rateLimiter[reconcile.Request]).fused.reserve = nil
			rec := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
				return reconcile.Result{}, errLoad
			}))
			reqs := benchRequests(1_000)
			ctx := context.Background()
			cycle := func(r reconcile.Request) {
				p.store.dequeued(r)
				_, _ = rec.Reconcile(ctx, r)
				rl.When(r)
			}
			for range historySize {
				for _, r := range reqs {
					cycle(r)
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				cycle(reqs[i%len(reqs)])
				i++
			}
		})
	}
}
