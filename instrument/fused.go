package instrument

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// fused is the default limiter a probe builds for itself (RateLimiter(nil)),
// kept in the store instead of beside it: the per-item count client-go's
// exponential limiter keeps in its own map lives in the key's entry
// (entry.requeues), so that a When is one lookup, not two, and no global
// mutex is taken (client-go's limiter has one, and the priority queue calls
// When under its own lock, so that mutex is every worker's). The delays are
// client-go's to the nanosecond (api.ExponentialDelay, the token bucket's
// own reservation); TestFusedMatchesClientGo checks it against client-go.
//
// A limiter the user passes in is never fused: its state stays where the
// user can see it.
type fused struct {
	base, max time.Duration
	// reserve takes a token from the classic limiter's bucket at now and
	// returns its delay; nil for the priority queue's exponential-only
	// default. The bucket runs on the store's clock, so that one clock read
	// serves both the token and the record.
	reserve func(now time.Time) time.Duration
}

// delay is the limiter's choice for a key counted requeues times, given the
// bucket's delay when there is a bucket: the larger wins, as in client-go's
// MaxOfRateLimiter.
func (f *fused) delay(requeues int32, bucket time.Duration) (time.Duration, uint8) {
	d := api.ExponentialDelay(f.base, f.max, int(requeues))
	if f.reserve != nil && bucket > d {
		return bucket, srcBucket
	}
	return d, srcItemExponential
}

// fusedOf returns the fused form of a limiter the probe built, or nil.
func fusedOf[T comparable](l any) *fused {
	switch l := l.(type) {
	case *ExponentialLimiter[T]:
		return &fused{base: l.base, max: l.max}
	case *ControllerLimiter[T]:
		return &fused{base: l.exp.base, max: l.exp.max, reserve: l.reserveAt}
	}
	return nil
}

// spill keeps the counts of a fused limiter for keys the store does not
// hold: a key arriving while the store is at its bound, or evicted with a
// count. The limiter must not forget what the store cannot keep: losing a
// count would retry a failing key at the base delay again.
type spill[T comparable] struct {
	n  atomic.Int64 // len(m), read without the lock: usually 0
	mu sync.Mutex
	m  map[T]int32
}

// take removes and returns item's count (0 if none).
func (s *spill[T]) take(item T) int32 {
	if s.n.Load() == 0 {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.m[item]
	if ok {
		delete(s.m, item)
		s.n.Add(-1)
	}
	return c
}

// put keeps a count of item's; a zero count needs no keeping.
func (s *spill[T]) put(item T, c int32) {
	if c == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[T]int32{}
	}
	if _, ok := s.m[item]; !ok {
		s.n.Add(1)
	}
	s.m[item] = c
}

// inc counts one more requeue of item and returns the count before.
func (s *spill[T]) inc(item T) int32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[T]int32{}
	}
	c, ok := s.m[item]
	if !ok {
		s.n.Add(1)
	}
	s.m[item] = c + 1
	return c
}

// get returns item's count.
func (s *spill[T]) get(item T) int32 {
	if s.n.Load() == 0 {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[item]
}
