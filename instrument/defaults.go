package instrument

import (
	"fmt"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"golang.org/x/time/rate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
)

// The parameters of client-go's and controller-runtime's default limiters.
const (
	DefaultBaseDelay = api.DefaultBaseDelay
	DefaultMaxDelay  = api.DefaultMaxDelay
	DefaultQPS       = 10
	DefaultBurst     = 100
)

// ExponentialLimiter is client-go's per-item exponential limiter, built from
// client-go's own implementation, that also reports its parameters. It is the
// default controller-runtime uses with the priority queue.
type ExponentialLimiter[T comparable] struct {
	workqueue.TypedRateLimiter[T]
	base, max time.Duration
}

// NewExponentialLimiter returns the per-item exponential limiter base·2^failures,
// capped at max, exactly as workqueue.NewTypedItemExponentialFailureRateLimiter.
func NewExponentialLimiter[T comparable](base, max time.Duration) *ExponentialLimiter[T] {
	return &ExponentialLimiter[T]{
		TypedRateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[T](base, max),
		base:             base,
		max:              max,
	}
}

func (l *ExponentialLimiter[T]) when(item T) (time.Duration, uint8) {
	return l.When(item), srcItemExponential
}

func (l *ExponentialLimiter[T]) component() api.LimiterComponent {
	return api.LimiterComponent{
		Name:      api.SourceItemExponential,
		BaseDelay: metav1.Duration{Duration: l.base},
		MaxDelay:  metav1.Duration{Duration: l.max},
	}
}

func (l *ExponentialLimiter[T]) describe() api.Limiter {
	return api.Limiter{
		Description: fmt.Sprintf("item-exponential %v..%v", l.base, l.max),
		Components:  []api.LimiterComponent{l.component()},
	}
}

// ControllerLimiter is client-go's DefaultTypedControllerRateLimiter — the max
// of a per-item exponential limiter and an overall token bucket — built from
// client-go's own parts, that also reports which of the two chose each delay.
type ControllerLimiter[T comparable] struct {
	exp    *ExponentialLimiter[T]
	bucket *rate.Limiter
	qps    float64
	burst  int
	// clock is the bucket's time source: the real clock, or the clock of the
	// probe that wraps the limiter when its Options.Clock is set, so that
	// the delays it records and the tokens it reports agree with the keys'
	// times (see TypedProbe.RateLimiter).
	clock clock.PassiveClock
}

// NewControllerLimiter returns the classic controller limiter with the given
// parameters; DefaultControllerLimiter has client-go's defaults.
func NewControllerLimiter[T comparable](base, max time.Duration, qps float64, burst int) *ControllerLimiter[T] {
	return &ControllerLimiter[T]{
		exp:    NewExponentialLimiter[T](base, max),
		bucket: rate.NewLimiter(rate.Limit(qps), burst),
		qps:    qps,
		burst:  burst,
	}
}

// DefaultControllerLimiter is workqueue.DefaultTypedControllerRateLimiter:
// max(5ms·2^n capped at 1000s, bucket 10 qps / burst 100).
func DefaultControllerLimiter[T comparable]() *ControllerLimiter[T] {
	return NewControllerLimiter[T](DefaultBaseDelay, DefaultMaxDelay, DefaultQPS, DefaultBurst)
}

// When is TypedMaxOfRateLimiter.When: each component once, the larger wins.
func (l *ControllerLimiter[T]) When(item T) time.Duration {
	d, _ := l.when(item)
	return d
}

func (l *ControllerLimiter[T]) when(item T) (time.Duration, uint8) {
	e := l.exp.When(item)
	if b := l.reserveAt(l.now()); b > e {
		return b, srcBucket
	}
	return e, srcItemExponential
}

// reserveAt takes one token from the bucket at now, a time of the
// limiter's clock, and returns how long it waits:
// workqueue.TypedBucketRateLimiter.When.
func (l *ControllerLimiter[T]) reserveAt(now time.Time) time.Duration {
	return l.bucket.ReserveN(now, 1).DelayFrom(now)
}

// NumRequeues is the exponential component's count (the bucket's is always 0).
func (l *ControllerLimiter[T]) NumRequeues(item T) int { return l.exp.NumRequeues(item) }

// Forget resets the exponential component (the bucket keeps no per-item state).
func (l *ControllerLimiter[T]) Forget(item T) { l.exp.Forget(item) }

// Tokens is the bucket's current token count. It reads without reserving, so
// looking does not change what the limiter decides.
func (l *ControllerLimiter[T]) Tokens() float64 { return l.bucket.TokensAt(l.now()) }

func (l *ControllerLimiter[T]) now() time.Time {
	if l.clock == nil {
		return time.Now()
	}
	return l.clock.Now()
}

func (l *ControllerLimiter[T]) describe() api.Limiter {
	tokens := l.Tokens()
	return api.Limiter{
		Description: fmt.Sprintf("max(item-exponential %v..%v, bucket %gqps/%d)", l.exp.base, l.exp.max, l.qps, l.burst),
		Components: []api.LimiterComponent{
			l.exp.component(),
			{Name: api.SourceBucket, QPS: l.qps, Burst: l.burst, Tokens: &tokens},
		},
	}
}

var (
	_ recordingLimiter[string] = &ExponentialLimiter[string]{}
	_ recordingLimiter[string] = &ControllerLimiter[string]{}
)
