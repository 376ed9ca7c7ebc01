package api

import (
	"math"
	"time"
)

// ExponentialDelay is the delay client-go's per-item exponential limiter
// (ItemExponentialFailureRateLimiter.When) chooses for a key it has counted
// requeues times: base·2^requeues, at most max, computed exactly as
// client-go does (in float64), so that the instrument's own limiter, the
// explanations and log mode's estimates give the queue's very numbers.
func ExponentialDelay(base, max time.Duration, requeues int) time.Duration {
	backoff := float64(base.Nanoseconds()) * math.Pow(2, float64(requeues))
	if backoff > math.MaxInt64 {
		return max
	}
	if d := time.Duration(backoff); d <= max {
		return d
	}
	return max
}
