package instrument

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
)

// DefaultJitter is the spread JitterLimiter applies when given 0: ±25 %.
const DefaultJitter = 0.25

// JitterLimiter spreads the delays of another limiter by a random factor in
// [1-f, 1+f], so that keys that failed together do not retry together: a
// mass failure (a dependency down) otherwise comes back as a herd, every key
// due in the same second. Opt-in: client-go's limiters add no jitter. The
// delays keep the source the wrapped limiter attributes them to.
type JitterLimiter[T comparable] struct {
	inner  workqueue.TypedRateLimiter[T]
	factor float64
}

// NewJitterLimiter wraps inner with a jitter of ±factor (DefaultJitter if
// factor is 0; it is capped at 1, where a delay may shrink to nothing).
func NewJitterLimiter[T comparable](inner workqueue.TypedRateLimiter[T], factor float64) *JitterLimiter[T] {
	if factor <= 0 {
		factor = DefaultJitter
	}
	return &JitterLimiter[T]{inner: inner, factor: min(factor, 1)}
}

// When is the wrapped limiter's delay, jittered.
func (l *JitterLimiter[T]) When(item T) time.Duration {
	d, _ := l.when(item)
	return d
}

func (l *JitterLimiter[T]) when(item T) (time.Duration, uint8) {
	d, src := whenOf(l.inner, item)
	return jitter(d, l.factor), src
}

// jitter scales d by a random factor in [1-f, 1+f].
func jitter(d time.Duration, f float64) time.Duration {
	if d <= 0 || f <= 0 {
		return d
	}
	return time.Duration(float64(d) * (1 + f*(2*rand.Float64()-1)))
}

// Forget delegates.
func (l *JitterLimiter[T]) Forget(item T) { l.inner.Forget(item) }

// NumRequeues delegates.
func (l *JitterLimiter[T]) NumRequeues(item T) int { return l.inner.NumRequeues(item) }

func (l *JitterLimiter[T]) describe() api.Limiter {
	d := describeLimiter(l.inner)
	d.Description = fmt.Sprintf("%s ±%g%% jitter", d.Description, l.factor*100)
	d.Components = append(d.Components, api.LimiterComponent{Name: api.ComponentJitter, Jitter: l.factor})
	return d
}

var _ recordingLimiter[string] = &JitterLimiter[string]{}
