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
// the median over iterations of both throughputs and of their ratio; run it
// with -benchtime=Nx, N pairs of segments. Every reconcile goes through the
// limiter's When (on the priority queue, under the queue's lock). The
// limiters are client-go's exponential one with nanosecond delays on both
// sides, so that the controller runs at full speed instead of waiting out
// its backoffs (the classic default's token bucket would cap both at 10
// reconciles a second). On an empty reconciler the ratio is what the
// probe's records cost (BenchmarkReconcileRecords) beside controller-
// runtime's own loop; the goal is BenchmarkControllerBudget's.
func BenchmarkControllerOverhead(b *testing.B) {
	const keys, segment = 1_000, 20_000
	for _, pq := range []bool{true, false} {
		b.Run(fmt.Sprintf("priority-queue=%v", pq), func(b *testing.B) {
			bare := startOverheadController(b, pq, false, keys)
			defer bare.stop()
			probed := startOverheadController(b, pq, true, keys)
			defer probed.stop()
			byTurns(b, bare, probed, segment, "bare-rec/s", "probed-rec/s")
		})
	}
}

// BenchmarkControllerBudget states the probe's goal for a controller: no
// worse than a bare controller whose reconciler spends the records' time.
// It times the records of a failing reconcile first, in this run, as
// BenchmarkReconcileRecords does (spin-ns), then runs, by turns as
// BenchmarkControllerOverhead does, the probed controller against a bare
// twin whose reconciler busy-waits that long on every reconcile, touching
// no shared memory. The ratio (probed over spun, goal ≥ 1 within the
// noise) says that the probe costs a controller its records and nothing
// more: no lock a worker waits on, no cache line the queue contends for.
func BenchmarkControllerBudget(b *testing.B) {
	const keys, segment = 1_000, 20_000
	for _, pq := range []bool{true, false} {
		b.Run(fmt.Sprintf("priority-queue=%v", pq), func(b *testing.B) {
			spin := recordsTime(pq, 200_000)
			spun := startOverheadController(b, pq, false, keys)
			defer spun.stop()
			spun.gate.spin = spinIterations(spin)
			probed := startOverheadController(b, pq, true, keys)
			defer probed.stop()
			byTurns(b, spun, probed, segment, "spun-rec/s", "probed-rec/s")
			b.ReportMetric(float64(spin.Nanoseconds()), "spin-ns")
		})
	}
}

// byTurns runs first and second by turns, segment reconciles each per
// iteration, and reports the medians of both throughputs (as firstUnit
// and secondUnit) and of their ratio, second over first.
func byTurns(b *testing.B, first, second *overheadController, segment int, firstUnit, secondUnit string) {
	var firsts, seconds, ratios []float64
	for b.Loop() {
		// By turns which goes first, so that neither always runs right
		// after the other has warmed the caches.
		x, y := first, second
		if len(ratios)%2 == 1 {
			x, y = second, first
		}
		x.run(segment)
		y.run(segment)
		firsts, seconds = append(firsts, first.last), append(seconds, second.last)
		ratios = append(ratios, second.last/first.last)
	}
	b.ReportMetric(median(firsts), firstUnit)
	b.ReportMetric(median(seconds), secondUnit)
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
// spin iterations of spinLoop first (BenchmarkControllerBudget).
type gatedReconciler struct {
	inner reconcile.Reconciler
	open  atomic.Bool
	mu    sync.Mutex
	cond  *sync.Cond
	spin  int
}

func newGatedReconciler(inner reconcile.Reconciler) *gatedReconciler {
	g := &gatedReconciler{inner: inner}
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
		spinSink.Store(spinLoop(g.spin))
	}
	return g.inner.Reconcile(ctx, req)
}

// spinSink keeps spinLoop's result, so that the loop is not optimised away.
var spinSink atomic.Uint64

// spinLoop busy-waits n dependent multiply-adds, in registers: a spin
// timed by reading the clock would add a clock read or more to the time
// it is asked for (about 30 ns each here, most of a short spin).
//
//go:noinline
func spinLoop(n int) uint64 {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// spinIterations is how many of spinLoop's iterations take d here: the
// fastest of five timings of ten million.
func spinIterations(d time.Duration) int {
	const n = 10_000_000
	best := time.Duration(1 << 62)
	for range 5 {
		best = min(best, timeOf(func() { spinSink.Store(spinLoop(n)) }))
	}
	return int(float64(d) / float64(best) * n)
}

// timeOf is the CPU time fn takes on its thread, or its wall time where
// that cannot be read: on a machine other processes load, a timing by the
// wall clock counts the time they took the core, which would make the spin
// (and the records it stands for) seem longer than they are.
func timeOf(fn func()) time.Duration {
	t0 := time.Now()
	cpu := threadCPU()
	fn()
	wall := time.Since(t0)
	if d, ok := cpu(); ok {
		return d
	}
	return wall
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
			// A call is a When, or with forget a When and its Forget: a pair.
			unit := "-ns/call"
			if tc.forget {
				unit = "-ns/pair"
			}
			b.ReportMetric(median(bareNs), "bare"+unit)
			b.ReportMetric(median(probedNs), "probed"+unit)
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
			cycle := newRecordsCycle(pq)
			b.ReportAllocs()
			cpu := threadCPU()
			for b.Loop() {
				cycle()
			}
			// The thread's CPU time as well: on a loaded machine, ns/op
			// counts the time other processes took the core.
			if d, ok := cpu(); ok {
				b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// newRecordsCycle returns BenchmarkReconcileRecords' loop body, each call
// the next key's records, its keys already through a full history.
func newRecordsCycle(pq bool) func() {
	p := New("records", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(pq), DisableMetrics: true})
	rl := p.RateLimiter(nil)
	rl.(*rateLimiter[reconcile.Request]).fused.reserve = nil
	rec := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, errLoad
	}))
	reqs := benchRequests(1_000)
	ctx := context.Background()
	i := 0
	cycle := func() {
		r := reqs[i%len(reqs)]
		p.store.dequeued(r)
		_, _ = rec.Reconcile(ctx, r)
		rl.When(r)
		i++
	}
	for range historySize * len(reqs) {
		cycle()
	}
	return cycle
}

// recordsTime is the time of one failing reconcile's records, the fastest
// of five runs of n cycles, as spinIterations times its spin (CPU time, see
// timeOf): what either costs when nothing else runs
// (BenchmarkControllerBudget's spin).
func recordsTime(pq bool, n int) time.Duration {
	cycle := newRecordsCycle(pq)
	best := time.Duration(1 << 62)
	for range 5 {
		best = min(best, timeOf(func() {
			for range n {
				cycle()
			}
		})/time.Duration(n))
	}
	return best
}
