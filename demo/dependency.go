package demo

import (
	"fmt"
	"time"
)

// schedule is the flaky dependency's outage plan: healthy for a short warm-up
// (so the first reconciles succeed and the keys settle to idle), then down
// for outage at the start of every period.
type schedule struct {
	start  time.Time
	warmup time.Duration
	outage time.Duration
	every  time.Duration
}

// down reports whether the dependency is in an outage at t.
func (s schedule) down(t time.Time) bool {
	since := t.Sub(s.start) - s.warmup
	if since < 0 {
		return false
	}
	return since%s.every < s.outage
}

// window returns the outage window in progress at t, or the next one.
func (s schedule) window(t time.Time) (from, to time.Time) {
	since := max(t.Sub(s.start)-s.warmup, 0)
	n := since / s.every
	if since%s.every >= s.outage {
		n++
	}
	from = s.start.Add(s.warmup + n*s.every)
	return from, from.Add(s.outage)
}

// dependency is the downstream API the outage controller syncs each object
// with. During an outage every call fails the way an overloaded service
// answers: 503 Service Unavailable.
type dependency struct {
	sched schedule
	now   func() time.Time
}

// unavailableError is the dependency's answer during an outage. Its text is
// the same on every attempt for a key, so the endpoint counts the repeats.
type unavailableError struct{ url string }

// Error implements error.
func (e *unavailableError) Error() string {
	return fmt.Sprintf("PUT %s: 503 Service Unavailable", e.url)
}

// sync pushes one object to the dependency.
func (d *dependency) sync(name string) error {
	if d.sched.down(d.now()) {
		return &unavailableError{url: "https://inventory.demo.svc/v1/items/" + name}
	}
	return nil
}
