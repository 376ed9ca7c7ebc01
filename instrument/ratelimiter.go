package instrument

import (
	"fmt"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
)

// rateLimiter decorates a workqueue rate limiter: it delegates every call
// exactly once, records what the limiter decided, and never changes it. It
// never calls into the queue either: the priority queue calls When while
// holding its own lock.
type rateLimiter[T comparable] struct {
	inner workqueue.TypedRateLimiter[T]
	probe *TypedProbe[T]
	// fused is set when inner is a default the probe built: then inner only
	// describes the limiter, and its state is in the store (see fused).
	fused *fused
}

var _ workqueue.TypedRateLimiter[string] = &rateLimiter[string]{}

// When delegates (or, fused, decides as client-go would), records the
// delay and which component chose it, and counts it in the delay histogram.
func (r *rateLimiter[T]) When(item T) time.Duration {
	var d time.Duration
	if r.fused != nil {
		d = r.probe.store.limitedFused(item, r.fused, r.probe.tracked.Load())
	} else {
		var src uint8
		d, src = whenOf(r.inner, item)
		r.probe.store.limited(item, d, src, r.probe.tracked.Load())
	}
	// Every delay the controller waits passes here once, after the store's
	// lock is released (the priority queue holds its own): the one place
	// for the per-controller delay histogram, one or two atomic adds.
	return r.probe.delays.observe(d)
}

// whenOf calls l.When once and says which component chose the delay: the
// instrument's own limiters know, any other is "limiter".
func whenOf[T comparable](l workqueue.TypedRateLimiter[T], item T) (time.Duration, uint8) {
	if rec, ok := l.(recordingLimiter[T]); ok {
		return rec.when(item)
	}
	return l.When(item), srcLimiter
}

// Forget delegates (or, fused, resets the key's count) and records that the
// failure counter was reset. With the reconciler decorator alone there is
// nothing to record: controller-runtime calls Forget only right after a
// success or a RequeueAfter, whose outcome is recorded already. Untracked, a
// Forget is the success; with Track, a Forget that finds a failure streak
// is the controller giving up on the key.
func (r *rateLimiter[T]) Forget(item T) {
	if r.fused == nil {
		r.inner.Forget(item)
	}
	switch tracked := r.probe.tracked.Load(); {
	case !tracked || r.probe.tracking.Load():
		r.probe.store.forgot(item, tracked) // resets a fused count too
	case r.fused != nil:
		r.probe.store.resetCount(item)
	}
}

// NumRequeues delegates.
func (r *rateLimiter[T]) NumRequeues(item T) int {
	if r.fused != nil {
		return r.probe.store.requeues(item)
	}
	return r.inner.NumRequeues(item)
}

// resetCount resets the limiter's count of item, for a forget asked for
// through the endpoint.
func (r *rateLimiter[T]) resetCount(item T) {
	if r.fused != nil {
		r.probe.store.resetCount(item)
		return
	}
	r.inner.Forget(item)
}

// recordingLimiter is implemented by the instrument's own versions of
// client-go's default limiters, which also say which component chose a delay.
type recordingLimiter[T comparable] interface {
	workqueue.TypedRateLimiter[T]
	when(item T) (time.Duration, uint8)
	describe() api.Limiter
}

// describeLimiter describes any limiter; unknown ones by their Go type.
func describeLimiter[T comparable](l workqueue.TypedRateLimiter[T]) api.Limiter {
	if rec, ok := l.(recordingLimiter[T]); ok {
		return rec.describe()
	}
	t := fmt.Sprintf("%T", l)
	return api.Limiter{
		Description: "custom limiter " + t,
		Components:  []api.LimiterComponent{{Name: api.SourceLimiter, Type: t}},
	}
}
