package ui

import (
	"context"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// common is what every view shares: the terminal size, styles, keys, the
// options as given and the live connection. Views hold a pointer to one common.
type common struct {
	width, height int
	styles        widget.Styles
	keys          keyMap
	// opts are the options as the caller gave them; never changed.
	opts Options
	// conn is what the UI is attached to now: it changes when the picker attaches.
	conn conn
	// readOnly is true when no controller accepts forget; actions are disabled.
	readOnly bool
	// source is where the keys come from, for a refused action's why.
	source source
	// paused stops the automatic refresh; pauses counts the times paused,
	// so that a read sent before this pause is known (pause.go).
	paused bool
	pauses int
	// canRequeue is true when some controller can requeue (retry now).
	canRequeue bool
	// logEnds is, for a saved log, its last line's time: what its states
	// and countdowns are judged at, as a snapshot's at its taking. Zero
	// for a live source.
	logEnds time.Time
	// statusLines is how many lines the status message takes above the
	// short help, which the scrolled views leave free.
	statusLines int
	// seenMarks are the row marks already explained in the footer, so each
	// legend shows once.
	seenMarks map[string]bool
}

// conn is the live session state: the context commands run under, the
// session and object reader attached now, and the sessions the UI opened
// itself (closed when it exits).
type conn struct {
	ctx       context.Context
	session   *inspector.Session
	objects   *inspector.ObjectReader
	namespace string
	owned     *sessions
}

// bodyHeight is how many lines a view has above the footer.
func (c *common) bodyHeight() int { return max(1, c.height-1-c.statusLines) }

// now is the local clock, for measuring time elapsed since a fetch.
func (c *common) now() time.Time { return c.opts.Clock() }

// serverNow is the server's time at this moment: the server's clock when
// the data was fetched plus the local time elapsed since, so a countdown
// never mixes the local clock with the pod's. A snapshot's clock stands
// still at its serverTime: it is what was true when it was taken, however
// long ago it was read (paused, it is not read again).
func (c *common) serverNow(serverTime, fetchedAt time.Time) time.Time {
	if serverTime.IsZero() {
		return time.Time{}
	}
	if c.snapshot() {
		return serverTime
	}
	return serverTime.Add(c.now().Sub(fetchedAt))
}

// snapshot reports whether the keys are a snapshot's (top --file): frozen
// at the time it was taken.
func (c *common) snapshot() bool { return !c.opts.SnapshotAt.IsZero() }

// setCapabilities enables or disables the actions from what the endpoint allows.
func (c *common) setCapabilities(ov *inspector.Overview) {
	if ov == nil || len(ov.Controllers) == 0 {
		return
	}
	c.readOnly = ov.ReadOnly()
	c.logEnds = logEndsAt(ov)
	c.source = sourceOf(ov)
	c.canRequeue = false
	for _, ctl := range ov.Controllers {
		if ctl.Capabilities.CanRequeue && !ctl.Capabilities.ReadOnly {
			c.canRequeue = true
		}
	}
	c.keys.setActions(!c.readOnly, !c.readOnly && c.canRequeue)
	c.keys.setStates(len(c.toggleStates()))
}

// logEndsAt is when the saved log ov was read from ends: its controllers'
// api.Controller.LogEndsAt, the time their states and countdowns are
// judged at. Zero for a live log (followed, a pipe) and for an endpoint.
func logEndsAt(ov *inspector.Overview) time.Time {
	var end time.Time
	for _, c := range ov.Controllers {
		if c.LogEndsAt.After(end) {
			end = c.LogEndsAt
		}
	}
	return end
}
