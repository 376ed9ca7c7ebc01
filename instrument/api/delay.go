package api

import (
	"math"
	"time"
)

// ExponentialDelay is the delay client-go's per-item exponential limiter
// (ItemExponentialFailureRateLimiter.When) chooses for a key it has counted
// requeues times: base·2^requeues, at most max, with client-go's float64
// arithmetic, so that the instrument's own limiter, the explanations and log
// mode's estimates give the queue's very numbers. client-go multiplies by
// math.Pow(2, requeues), which is exact (a power of two, +Inf from 2^1024);
// Ldexp is the same product, exact and rounded alike, at a fifth of the cost:
// the priority queue calls this under its lock.
func ExponentialDelay(base, max time.Duration, requeues int) time.Duration {
	// The usual cases in integers: below 2^53 a float64 holds base exactly,
	// and below 2^63 so does the product, so that the float's answer is
	// the shift when it is at most max, and max when it is more (a key
	// that keeps failing waits max from its 18th requeue with client-go's
	// defaults); the rest (huge bases and counts, overflow) as client-go.
	if base > 0 && base < 1<<53 && requeues >= 0 {
		if requeues < 63 {
			if base <= max>>requeues {
				return base << requeues
			}
			return max
		}
		if requeues > 63 || base > 1 {
			// base·2^requeues is 2^64 or more: past int64, which client-go
			// answers with max. A key failing for hours at the cap gets
			// here on every When; 1·2^63 is left to the float path below.
			return max
		}
	}
	backoff := math.Ldexp(float64(base.Nanoseconds()), requeues)
	if backoff > math.MaxInt64 {
		return max
	}
	if d := time.Duration(backoff); d <= max {
		return d
	}
	return max
}
