package query

import (
	"context"
	"sync"
	"time"
)

// Admission defaults (see Options).
const (
	// DefaultMaxConcurrentLists is how many list computations run at once.
	// Two: on a small node the controller keeps the other cores.
	DefaultMaxConcurrentLists = 2
	// DefaultAdmissionWait is how long a list request waits for a slot
	// before it is answered 429.
	DefaultAdmissionWait = 250 * time.Millisecond
	// DefaultReuse is how long a computed list may answer identical requests.
	DefaultReuse = 250 * time.Millisecond
	// maxComputeTime bounds one list computation, whoever still waits for it.
	maxComputeTime = 10 * time.Second
	// maxReused bounds the results kept for reuse.
	maxReused = 16
	// listDuty keeps a slot taken after a computation for listDuty times as
	// long as it ran (at most maxRest): each slot then spends at most
	// 1/(listDuty+1) of a core on lists, and the controller keeps the rest.
	// This is the handler's lower priority: Go has no thread priorities.
	listDuty = 4
	maxRest  = 250 * time.Millisecond
)

// admission bounds the list computations of one handler: at most cap(slots)
// run at once, the rest wait up to wait and are then refused with 429.
// Identical requests (same key) share one computation, and a finished result
// answers identical requests for up to reuse. It runs each computation in
// its own goroutine, cancelled once no request waits for it any more.
type admission struct {
	slots chan struct{}
	wait  time.Duration
	reuse time.Duration
	now   func() time.Time // the real clock, for reuse and age

	mu    sync.Mutex
	calls map[string]*flight
}

// flight is one computation and everyone waiting for it.
type flight struct {
	done     chan struct{}
	val      any
	err      error
	at       time.Time // when it finished
	serverAt time.Time // the server's time when it started
	refs     int       // requests still waiting
	cancel   context.CancelFunc
}

func newAdmission(n int, wait, reuse time.Duration) *admission {
	return &admission{slots: make(chan struct{}, n), wait: wait, reuse: reuse, now: time.Now, calls: map[string]*flight{}}
}

// do returns the result of compute for key, computing it at most once for
// identical concurrent requests, and its age: how long ago it was computed.
// A finished result is reused only while both the real clock and the
// server's (serverNow, which a test may hold still or step) say it is
// younger than the reuse window, and only while every slot is taken (when
// the request would otherwise wait); reuse false never reuses one.
func (a *admission) do(ctx context.Context, key string, serverNow time.Time, reuse bool, compute func(context.Context) (any, error)) (any, time.Duration, error) {
	a.mu.Lock()
	c := a.calls[key]
	if c != nil && c.finished() {
		// Reuse only under load, instead of queueing: a lone client
		// always gets a fresh answer.
		busy := len(a.slots) == cap(a.slots)
		fresh := reuse && busy && c.err == nil && serverNow.Sub(c.serverAt).Abs() <= a.reuse
		if age := a.now().Sub(c.at); fresh && age <= a.reuse {
			a.mu.Unlock()
			return c.val, age.Round(time.Millisecond), nil
		}
		delete(a.calls, key)
		c = nil
	}
	if c == nil {
		c = a.start(key, serverNow, compute)
	}
	c.refs++
	a.mu.Unlock()

	select {
	case <-c.done:
		return c.val, 0, c.err // computed while this request waited: fresh
	case <-ctx.Done():
		a.mu.Lock()
		if c.refs--; c.refs == 0 {
			c.cancel() // nobody wants it any more: stop working
		}
		a.mu.Unlock()
		return nil, 0, ctx.Err()
	}
}

// start runs compute for key in its own goroutine; a.mu is held.
func (a *admission) start(key string, serverNow time.Time, compute func(context.Context) (any, error)) *flight {
	ctx, cancel := context.WithTimeout(context.Background(), maxComputeTime)
	c := &flight{done: make(chan struct{}), cancel: cancel, serverAt: serverNow}
	a.prune()
	a.calls[key] = c
	go func() {
		defer cancel()
		val, err := a.run(ctx, compute)
		a.mu.Lock()
		c.val, c.err, c.at = val, err, a.now()
		if err != nil || a.reuse <= 0 || len(a.calls) > maxReused {
			delete(a.calls, key)
		}
		close(c.done)
		a.mu.Unlock()
	}()
	return c
}

// run takes a slot, waiting at most a.wait for one, and computes.
func (a *admission) run(ctx context.Context, compute func(context.Context) (any, error)) (any, error) {
	timer := time.NewTimer(a.wait)
	defer timer.Stop()
	select {
	case a.slots <- struct{}{}:
	case <-timer.C:
		return nil, Busy(time.Second, "the endpoint is computing %d lists already; retry in a second", cap(a.slots))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	began := time.Now()
	defer func() {
		rest := min(time.Since(began)*listDuty, maxRest)
		if rest <= time.Millisecond {
			<-a.slots
			return
		}
		time.AfterFunc(rest, func() { <-a.slots })
	}()
	return compute(ctx)
}

// prune drops finished results past the reuse window; a.mu is held.
func (a *admission) prune() {
	t := a.now()
	for k, c := range a.calls {
		if c.finished() && t.Sub(c.at) > a.reuse {
			delete(a.calls, k)
		}
	}
}

// forgetResults drops every finished result: after a forget, a list must
// show it.
func (a *admission) forgetResults() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, c := range a.calls {
		if c.finished() {
			delete(a.calls, k)
		}
	}
}

func (c *flight) finished() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}
