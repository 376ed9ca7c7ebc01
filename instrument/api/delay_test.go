package api

import (
	"math"
	"testing"
	"time"
)

// clientGoDelay is client-go's ItemExponentialFailureRateLimiter.When, as
// written there, for a key counted requeues times.
func clientGoDelay(base, max time.Duration, requeues int) time.Duration {
	backoff := float64(base.Nanoseconds()) * math.Pow(2, float64(requeues))
	if backoff > math.MaxInt64 {
		return max
	}
	calculated := time.Duration(backoff)
	if calculated > max {
		return max
	}
	return calculated
}

// TestExponentialDelayMatchesClientGo: the integer fast path and the float
// one give client-go's delay to the nanosecond, over bases from 1 ns to
// beyond 2^53 ns and every count up to past the overflow.
func TestExponentialDelayMatchesClientGo(t *testing.T) {
	bases := []time.Duration{1, 3, 5 * time.Millisecond, 7777777, time.Second, 1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<62 + 12345}
	maxes := []time.Duration{time.Microsecond, 1000 * time.Second, math.MaxInt64, 1<<53 + 1}
	for _, base := range bases {
		for _, max := range maxes {
			for n := range 1100 {
				if e, a := clientGoDelay(base, max, n), ExponentialDelay(base, max, n); e != a {
					t.Fatalf("ExponentialDelay(%d, %d, %d) = %d, client-go's %d", base, max, n, a, e)
				}
			}
		}
	}
}
