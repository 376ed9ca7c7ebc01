package instrument

import (
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"time"
)

// This file is the probe's side of the endpoint: read-only views of the store.

func (p *TypedProbe[T]) now() time.Time { return p.store.clock.Now() }

// info describes the controller, counting its keys by state.
func (p *TypedProbe[T]) info(now time.Time) api.Controller {
	p.mu.Lock()
	limiter, q := p.limiter, p.queue
	p.mu.Unlock()

	c := api.Controller{
		Name:   p.Name(),
		Kind:   p.kind,
		Active: p.active.Load(),
		Counts: make(map[api.State]int, len(api.States)),
		Capabilities: api.Capabilities{
			CanForget:  limiter != nil,
			CanRequeue: limiter != nil && q != nil,
			Sorts:      api.Sorts,
		},
	}
	for _, s := range api.States {
		c.Counts[s] = 0
	}
	if limiter != nil {
		c.Limiter = describeLimiter(limiter.inner)
	} else {
		c.Limiter = api.Limiter{Description: "not instrumented", Components: []api.LimiterComponent{}}
	}
	if q != nil {
		c.QueueDepth = new(q.Len())
	}
	ns := now.UnixNano()
	p.store.maybeSweep(ns)
	c.Forecast = make([]int, api.ForecastSeconds)
	c.Overflow = p.store.overflow.Load()
	p.store.each(func(e *entry[T]) {
		st := e.state(ns)
		c.Counts[st]++
		if (st == api.StateBackoff || st == api.StateScheduled) && e.nextRetry > ns {
			c.Pending++
			if i := (e.nextRetry - ns) / int64(time.Second); i < api.ForecastSeconds {
				c.Forecast[i]++
			}
		}
	})
	for _, n := range c.Counts {
		c.Keys += n
	}
	return c
}

// lookup returns one key with its history and the time it was read at. The
// clock is read under the key's lock, so the answer is one instant: a
// reconcile that starts while the request waits for the lock is never
// reported as started after the server time.
func (p *TypedProbe[T]) lookup(key string) (k api.Key, at time.Time, ok bool) {
	ok = p.store.withKey(key, func(e *entry[T]) {
		at = p.now()
		k = e.view(p.Name(), at.UnixNano(), true)
	})
	return k, at, ok
}
