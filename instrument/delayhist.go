package instrument

import (
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// This file is the rate limiter's delay histogram: per controller, what
// upstream client-go proposes per queue as workqueue_rate_limiter_delay_seconds
// (kubernetes/kubernetes PR #138256, "workqueue: add metric for rate limiter
// delay": how long items wait in the configured rate limiter before they
// are added to the queue again), under this project's prefix and with the
// probe's "controller" label where upstream's has "name". It is observed
// where that delay is decided, in the limiter's When, as the delay When
// returns.
//
// The PR's bucket list was not in any text we could read, so the buckets
// are derived from client-go's default limiters (k8s.io/client-go
// util/workqueue, DefaultTypedControllerRateLimiter and controller-runtime's
// priority-queue default): the per-item exponential limiter waits
// 5ms·2^(n-1) after the n-th failure in a row, capped at 1000s. Each of
// those delays is a bucket's upper bound (le is inclusive), so a default
// controller's every delay lands in a bucket of its own and the histogram
// reads as "how deep into its backoff was each retry"; other delays (the
// token bucket's, a custom limiter's) land in the next bound up.

// MetricRateLimiterDelay is a histogram of the delays, in seconds, the
// controller's rate limiter chose for items before they were added back
// to the queue (each When: a failure, or a Requeue), label "controller".
const MetricRateLimiterDelay = "kubectl_backoff_rate_limiter_delay_seconds"

// delayBase and delayDoublings are client-go's default exponential limiter:
// the bounds are delayBase·2^n for n in 0..delayDoublings, then delayCap.
const (
	delayBase      = 5 * time.Millisecond
	delayDoublings = 17 // 5ms·2^17 = 655.36s, the last bound under the cap
	delayCap       = 1000 * time.Second
)

// delayBuckets counts the finite bounds: 18 doublings from 5ms, the cap.
const delayBuckets = delayDoublings + 2

// DelayBucketBounds are MetricRateLimiterDelay's bucket upper bounds in
// seconds: 0.005, 0.01, 0.02 … 655.36, 1000.
func DelayBucketBounds() []float64 {
	out := make([]float64, delayBuckets)
	for n := range delayDoublings + 1 {
		out[n] = float64(delayBase<<n) / 1e9 // one rounding: 655.36, not 655+0.36
	}
	out[delayDoublings+1] = delayCap.Seconds()
	return out
}

// delayHistogram counts delays by bucket, without a lock or an allocation.
// A delay at a bound (every delay of a default limiter's exponential
// component, the one that decides unless the token bucket runs dry) is one
// atomic add: its bucket's "at" count, whose sum is the bound times the
// count. Any other delay is two: its bucket's "within" count, and the sum of
// such delays. Counts are kept per bucket, not cumulated; the scrape adds
// them up.
type delayHistogram struct {
	at     [delayBuckets]atomic.Uint64     // delays equal to bound i
	within [delayBuckets + 1]atomic.Uint64 // other delays of bucket i; the last is +Inf
	// sumMicros is the within delays' sum in microseconds: a uint64 of them
	// holds 584,000 years of delay, where nanoseconds would wrap after a
	// few days of 100,000 keys at the 1000s cap.
	sumMicros atomic.Uint64
}

// observe counts d and returns it, so that When's return can pass through.
func (h *delayHistogram) observe(d time.Duration) time.Duration {
	i := delayBucket(d)
	if i < delayBuckets && d == delayBound(i) {
		h.at[i].Add(1)
		return d
	}
	h.within[i].Add(1)
	if d > 0 {
		h.sumMicros.Add(uint64(d / time.Microsecond))
	}
	return d
}

// delayBound is bucket i's upper bound (i < delayBuckets).
func delayBound(i int) time.Duration {
	if i > delayDoublings {
		return delayCap
	}
	return delayBase << i
}

// delayBucket is the index of the smallest bound d fits under: for d ≤ 5ms
// bucket 0, else the n with 5ms·2^(n-1) < d ≤ 5ms·2^n, found by the bit
// length of (d-1)/5ms instead of a search; past the doublings, the cap's
// bucket or +Inf.
func delayBucket(d time.Duration) int {
	if d <= delayBase {
		return 0
	}
	n := bits.Len64(uint64((d - 1) / delayBase))
	switch {
	case n <= delayDoublings:
		return n
	case d <= delayCap:
		return delayDoublings + 1
	default:
		return delayBuckets
	}
}

// newDelayDesc is MetricRateLimiterDelay's description for a controller.
func newDelayDesc(l prometheus.Labels) *prometheus.Desc {
	return prometheus.NewDesc(MetricRateLimiterDelay,
		"How long in seconds the controller's rate limiter delayed items before adding them back to the queue (the delay When returned).", nil, l)
}

// collect sends the histogram as it stands: cumulative buckets, as the
// exposition wants them. The counts are read one at a time, so a scrape
// racing observations may see a count without its sum; the next is whole.
func (h *delayHistogram) collect(ch chan<- prometheus.Metric, desc *prometheus.Desc) {
	bounds := DelayBucketBounds()
	cum := make(map[float64]uint64, len(bounds))
	var total, sumMicros uint64
	for i, b := range bounds {
		at := h.at[i].Load()
		total += at + h.within[i].Load()
		sumMicros += at * uint64(delayBound(i)/time.Microsecond)
		cum[b] = total
	}
	total += h.within[delayBuckets].Load()
	sumMicros += h.sumMicros.Load()
	ch <- prometheus.MustNewConstHistogram(desc, total, float64(sumMicros)/1e6, cum)
}
