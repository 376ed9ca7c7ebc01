package api

import "time"

// Rules every side of the wire applies, stated once.

// MaxSpread bounds the window a forget with requeue releases its keys over
// (ForgetRequest.Spread): the endpoint refuses more, and the CLI's --spread
// and the UI check against it before asking.
const MaxSpread = time.Hour

// The default per-item exponential limiter of controller-runtime v0.25 with
// its priority queue (client-go's DefaultTypedItemBasedRateLimiter): the
// first retry after DefaultBaseDelay, doubling up to DefaultMaxDelay. The
// instrument describes it with these; a log source estimates retries with
// them.
const (
	DefaultBaseDelay = 5 * time.Millisecond
	DefaultMaxDelay  = 1000 * time.Second
)

// Forgets reports whether a controller with these capabilities accepts
// v1/forget: it has the limiter decorator that forget resets, and the
// endpoint is not read-only. The one rule the CLI, the UI and a session's
// ReadOnly apply.
func (c Capabilities) Forgets() bool { return c.CanForget && !c.ReadOnly }

// Requeues reports whether a controller with these capabilities can forget
// a key and retry it now (forget --requeue): it accepts v1/forget and its
// queue is instrumented. Otherwise a forget keeps a pending retry's time,
// and a retry now must touch the object (kick). The one rule why's and
// describe's advice apply.
func (c Capabilities) Requeues() bool { return c.CanRequeue && c.Forgets() }
