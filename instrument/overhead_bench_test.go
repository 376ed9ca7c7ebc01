package instrument

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// BenchmarkControllerOverhead is what the probe costs a controller: a real
// controller-runtime controller (4 workers, 1,000 keys failing on every
// reconcile, both queues) runs a fixed number of reconciles bare, then
// instrumented as documented (ControllerOptions, the Reconciler decorator,
// the probe's own limiter), one after the other in each round, and reports
// both throughputs and their ratio. Every reconcile goes through the
// limiter's When, under the priority queue's lock. The limiters are client-go's
// exponential one with nanosecond delays on both sides, so that the
// controller runs at full speed instead of waiting out its backoffs (the
// classic default's token bucket would cap both at 10 reconciles a second).
func BenchmarkControllerOverhead(b *testing.B) {
	const keys, reconciles = 1_000, 100_000
	for _, pq := range []bool{true, false} {
		b.Run(fmt.Sprintf("priority-queue=%v", pq), func(b *testing.B) {
			var bare, probed float64
			for b.Loop() {
				bare = runController(b, pq, false, keys, reconciles)
				probed = runController(b, pq, true, keys, reconciles)
			}
			b.ReportMetric(bare, "bare-rec/s")
			b.ReportMetric(probed, "probed-rec/s")
			b.ReportMetric(probed/bare, "ratio")
		})
	}
}

// runController starts a controller, bare or probed, lets every key run once,
// then returns the rate of the next n reconciles.
func runController(b *testing.B, pq, probed bool, keys, n int) float64 {
	const base, maxDelay = time.Nanosecond, time.Microsecond
	rec := newCountingReconciler()
	opts := controller.TypedOptions[reconcile.Request]{
		Reconciler:              rec,
		RateLimiter:             workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](base, maxDelay),
		UsePriorityQueue:        ptr.To(pq),
		MaxConcurrentReconciles: 4,
		SkipNameValidation:      ptr.To(true),
		Logger:                  logr.Discard(),
	}
	if probed {
		p := New("overhead", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(pq), DisableMetrics: true})
		opts.Reconciler, opts.RateLimiter = p.Reconciler(rec), nil
		opts = p.ControllerOptions(opts)
		// The probe's own limiter, fused into its store, with the bare
		// side's delays (and no token bucket on the classic queue).
		f := opts.RateLimiter.(*rateLimiter[reconcile.Request]).fused
		f.base, f.max, f.reserve = base, maxDelay, nil
	}
	stop, run := startLoadController(b, opts, rec, keys)
	defer stop()
	run(keys) // every key seen once, the queue warm
	return run(n)
}
