package instrument

import (
	"time"
)

// This file is the probe's side of the endpoint: read-only views of the store.

func (p *TypedProbe[T]) now() time.Time { return p.store.clock.Now() }

// info describes the controller, counting its keys by state.
func (p *TypedProbe[T]) info(now time.Time) Controller {
	p.mu.Lock()
	limiter, q := p.limiter, p.queue
	p.mu.Unlock()

	c := Controller{
		Name:   p.name,
		Kind:   p.kind,
		Active: p.active.Load(),
		Counts: make(map[State]int, len(States)),
		Capabilities: Capabilities{
			CanForget:  limiter != nil,
			CanRequeue: limiter != nil && q != nil,
		},
	}
	for _, s := range States {
		c.Counts[s] = 0
	}
	if limiter != nil {
		c.Limiter = describeLimiter(limiter.inner)
	} else {
		c.Limiter = Limiter{Description: "not instrumented", Components: []LimiterComponent{}}
	}
	if q != nil {
		c.QueueDepth = new(q.Len())
	}
	ns := now.UnixNano()
	p.store.maybeSweep(ns)
	c.Forecast = make([]int, ForecastSeconds)
	p.store.each(func(e *entry[T]) {
		st := e.state(ns)
		c.Counts[st]++
		if (st == StateBackoff || st == StateScheduled) && e.nextRetry > ns {
			c.Pending++
			if i := (e.nextRetry - ns) / int64(time.Second); i < ForecastSeconds {
				c.Forecast[i]++
			}
		}
	})
	for _, n := range c.Counts {
		c.Keys += n
	}
	return c
}

func (p *TypedProbe[T]) collect(q *keyQuery, now int64, top *topK) int {
	return p.store.collect(p.name, q, now, top)
}

// lookup returns one key with its history.
func (p *TypedProbe[T]) lookup(key string, now int64) (Key, bool) {
	sh, e := p.store.find(key)
	if e == nil {
		return Key{}, false
	}
	k := e.view(p.name, now, true)
	sh.mu.Unlock()
	return k, true
}
