package instrument

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
)

// TestDelayBucketBounds: client-go's default exponential limiter's delays
// (5ms doubling, capped at 1000s), written out by hand.
func TestDelayBucketBounds(t *testing.T) {
	want := []float64{0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96,
		81.92, 163.84, 327.68, 655.36, 1000}
	if got := DelayBucketBounds(); !slices.Equal(got, want) {
		t.Errorf("bounds:\n got %v\nwant %v", got, want)
	}
}

// TestDelayBucket: a bound is its own bucket's (le is inclusive); a
// nanosecond more is the next's.
func TestDelayBucket(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int
	}{
		{-time.Second, 0}, {0, 0}, {time.Millisecond, 0}, {5 * time.Millisecond, 0},
		{5*time.Millisecond + 1, 1}, {10 * time.Millisecond, 1}, {10*time.Millisecond + 1, 2},
		{time.Second, 8}, // 0.64 < 1 ≤ 1.28
		{655360 * time.Millisecond, 17}, {655360*time.Millisecond + 1, 18},
		{1000 * time.Second, 18}, {1000*time.Second + 1, 19}, {time.Hour, 19},
	} {
		if got := delayBucket(tc.d); got != tc.want {
			t.Errorf("delayBucket(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

// TestDelayHistogramOfDefaultLimiters: one key failing 20 times in a row
// through each of the probe's limiter paths (client-go's default decorated;
// the probe's own default, fused, on both queues). client-go's limiter
// waits 5ms·2^(n-1) after the n-th failure up to 1000s, and the token
// bucket (burst 100) adds nothing to 20 calls: one count in each bucket up
// to 655.36, then two at the cap; the sum is 5ms·(2^18-1) + 2·1000s.
func TestDelayHistogramOfDefaultLimiters(t *testing.T) {
	var want strings.Builder
	want.WriteString("# HELP " + MetricRateLimiterDelay + " How long in seconds the controller's rate limiter delayed items before adding them back to the queue (the delay When returned).\n")
	want.WriteString("# TYPE " + MetricRateLimiterDelay + " histogram\n")
	for i, b := range []string{"0.005", "0.01", "0.02", "0.04", "0.08", "0.16", "0.32", "0.64", "1.28", "2.56", "5.12",
		"10.24", "20.48", "40.96", "81.92", "163.84", "327.68", "655.36"} {
		fmt.Fprintf(&want, "%s_bucket{controller=\"foo\",le=%q} %d\n", MetricRateLimiterDelay, b, i+1)
	}
	fmt.Fprintf(&want, "%s_bucket{controller=\"foo\",le=\"1000\"} 20\n", MetricRateLimiterDelay)
	fmt.Fprintf(&want, "%s_bucket{controller=\"foo\",le=\"+Inf\"} 20\n", MetricRateLimiterDelay)
	fmt.Fprintf(&want, "%s_sum{controller=\"foo\"} 3310.715\n", MetricRateLimiterDelay)
	fmt.Fprintf(&want, "%s_count{controller=\"foo\"} 20\n", MetricRateLimiterDelay)

	for _, tc := range []struct {
		name  string
		usePQ bool
		inner workqueue.TypedRateLimiter[string]
	}{
		{"client-go default, decorated", false, workqueue.DefaultTypedControllerRateLimiter[string]()},
		{"probe default, classic queue", false, nil},
		{"probe default, priority queue", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prom := prometheus.NewPedanticRegistry()
			p := NewTyped("foo", TypedOptions[string]{Registry: NewRegistry(), UsePriorityQueue: ptr.To(tc.usePQ), MetricsRegisterer: prom})
			rl := p.RateLimiter(tc.inner)
			for range 20 {
				rl.When("ns/stuck")
			}
			if err := testutil.GatherAndCompare(prom, strings.NewReader(want.String()), MetricRateLimiterDelay); err != nil {
				t.Error(err)
			}
		})
	}
}

// BenchmarkDelayObserve is the observation When pays: on a default
// limiter's delays (at a bound: one atomic add) and on others (two), alone
// and from both cores at once (the limiter's callers are the controller's
// workers); beside client_golang's histogram on the same buckets.
func BenchmarkDelayObserve(b *testing.B) {
	at, off := make([]time.Duration, 64), make([]time.Duration, 64)
	for i := range at {
		at[i] = delayBound(i % delayBuckets)
		off[i] = at[i] - time.Duration(i+1)*time.Microsecond
	}
	for _, tc := range []struct {
		name   string
		delays []time.Duration
	}{{"at-bound", at}, {"off-bound", off}} {
		b.Run("observe-"+tc.name, func(b *testing.B) {
			var h delayHistogram
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				h.observe(tc.delays[i&63])
				i++
			}
		})
		b.Run("observe-parallel-"+tc.name, func(b *testing.B) {
			var h delayHistogram
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					h.observe(tc.delays[i&63])
					i++
				}
			})
		})
	}
	b.Run("client_golang-histogram", func(b *testing.B) {
		h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "x", Buckets: DelayBucketBounds()})
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			h.Observe(at[i&63].Seconds())
			i++
		}
	})
}
