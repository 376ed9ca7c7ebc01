package instrument

import (
	"time"

	"k8s.io/utils/clock"
)

// monoClock is the real clock, read through the monotonic clock only: Now is
// the wall time at creation plus the monotonic time since. Reading one clock
// instead of two halves the cost of a timestamp, and time.Now is the largest
// single cost of recording a When on machines without a fast wall clock.
// Timestamps can drift from the wall clock by what NTP slews meanwhile
// (milliseconds a day), which does not matter for backoffs of at most minutes.
type monoClock struct {
	epoch      time.Time
	epochNanos int64
}

var _ clock.PassiveClock = monoClock{}

func newMonoClock() monoClock {
	now := time.Now()
	return monoClock{epoch: now, epochNanos: now.UnixNano()}
}

// nanos is Now().UnixNano() without building a time.Time.
func (c monoClock) nanos() int64 { return c.epochNanos + int64(time.Since(c.epoch)) }

// Now is the current time: one monotonic clock read.
func (c monoClock) Now() time.Time { return c.epoch.Add(time.Since(c.epoch)) }

// Since is the time elapsed since t.
func (c monoClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
