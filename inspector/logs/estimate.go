package logs

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Limiter is the rate limiter the estimates assume: per-item exponential,
// BaseDelay·2^(failures−1), capped at MaxDelay. A log does not say which
// limiter a controller runs; controller-runtime's default (the priority
// queue's, and the larger part of the classic queue's max-of limiter) is
// DefaultLimiter.
type Limiter struct {
	BaseDelay, MaxDelay time.Duration
}

// DefaultLimiter is controller-runtime v0.25's default: 5ms to 1000s.
var DefaultLimiter = Limiter{BaseDelay: api.DefaultBaseDelay, MaxDelay: api.DefaultMaxDelay}

// Delay is the delay the limiter chooses after the n-th consecutive failure
// (n ≥ 1), as client-go's ItemExponentialFailureRateLimiter computes it.
func (l Limiter) Delay(n int) time.Duration {
	if n < 1 {
		return 0
	}
	return api.ExponentialDelay(l.BaseDelay, l.MaxDelay, n-1)
}

// wire describes the limiter for v1/controllers, saying it is assumed.
func (l Limiter) wire() api.Limiter {
	return api.Limiter{
		Description: fmt.Sprintf("item-exponential %v..%v (assumed: controller-runtime's default; estimated from logs)", l.BaseDelay, l.MaxDelay),
		Components: []api.LimiterComponent{{
			Name:      api.SourceItemExponential,
			BaseDelay: metav1.Duration{Duration: l.BaseDelay},
			MaxDelay:  metav1.Duration{Duration: l.MaxDelay},
		}},
	}
}
