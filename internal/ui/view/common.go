package view

import (
	tea "charm.land/bubbletea/v2"
	"context"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Common is what every view shares: the terminal size, styles, keys, the
// options as given and the live connection. Views hold a pointer to one common.
type Common struct {
	Width, Height int
	Styles        widget.Styles
	Keys          KeyMap
	// Opts are the options as the caller gave them; never changed.
	Opts Options
	// Conn is what the UI is attached to now: it changes when the picker attaches.
	Conn Conn
	// readOnly is true when no controller accepts forget; actions are disabled.
	readOnly bool
	// source is where the keys come from, for a refused action's why.
	source source
	// Paused stops the automatic refresh; pauses counts the times paused,
	// so that a read sent before this pause is known (the root's pause.go).
	Paused bool
	Pauses int
	// canRequeue is true when some controller can requeue (retry now).
	canRequeue bool
	// Source is the overview's source (inspector.Overview.Source): nil for
	// an instrumented endpoint.
	Source *api.ListSource
	// StatusLines is how many lines the status message takes above the
	// short help, which the scrolled views leave free.
	StatusLines int
	// SeenMarks are the row marks already explained in the footer, so each
	// legend shows once.
	SeenMarks map[string]bool
	// groupsSeq numbers the error groups' reads (Groups.Refresh).
	groupsSeq int
}

// Conn is the live session state: the context commands run under, the
// session and object reader attached now, and the sessions the UI opened
// itself (closed when it exits).
type Conn struct {
	Ctx       context.Context
	Session   *inspector.Session
	Objects   *describe.ObjectReader
	Namespace string
	Owned     *Sessions
}

// bodyHeight is how many lines a view has above the footer.
func (c *Common) bodyHeight() int { return max(1, c.Height-1-c.StatusLines) }

// Now is the local clock, for measuring time elapsed since a fetch.
func (c *Common) Now() time.Time { return c.Opts.Clock() }

// ServerNow is the server's time at this moment: the server's clock when
// the data was fetched plus the local time elapsed since, so a countdown
// never mixes the local clock with the pod's. A snapshot's clock stands
// still at its serverTime: it is what was true when it was taken, however
// long ago it was read (paused, it is not read again).
func (c *Common) ServerNow(serverTime, fetchedAt time.Time) time.Time {
	if serverTime.IsZero() {
		return time.Time{}
	}
	if c.Snapshot() {
		return serverTime
	}
	return serverTime.Add(c.Now().Sub(fetchedAt))
}

// Snapshot reports whether the keys are a snapshot's (top --file): frozen
// at the time it was taken, as the list's source says.
func (c *Common) Snapshot() bool { return c.Source.Snapshot() }

// StaleLog is how long before now a saved log must end for its times to be
// said as after its end ("+15s"), not as countdowns: a year-old log's
// "NEXT 2s" read as live (newcomer ui11).
const StaleLog = 5 * time.Minute

// LogStale reports whether the log shown ended more than StaleLog before
// now: its NEXT and forecast are said as time after its end.
func (c *Common) LogStale() bool {
	end := c.LogEnds()
	return !end.IsZero() && c.Now().Sub(end) > StaleLog
}

// LogEnds is, for a saved log, its last line's time (its source's EndsAt):
// what its states and countdowns are judged at, as a snapshot's at its
// taking. Zero for a live source.
func (c *Common) LogEnds() time.Time {
	if c.Source == nil {
		return time.Time{}
	}
	return c.Source.EndsAt
}

// SnapshotAt is when the snapshot shown was taken (on the server's clock);
// zero for a live source.
func (c *Common) SnapshotAt() time.Time {
	if c.Source == nil {
		return time.Time{}
	}
	return c.Source.SnapshotAt
}

// SetCapabilities enables or disables the actions from what the endpoint allows.
func (c *Common) SetCapabilities(ov *inspector.Overview) {
	if ov == nil {
		return
	}
	c.Source = ov.Source
	c.Keys.SetStill(c.Snapshot())
	if len(ov.Controllers) == 0 {
		return
	}
	c.readOnly = ov.ReadOnly()
	c.source = sourceOf(ov)
	c.canRequeue = false
	for _, ctl := range ov.Controllers {
		if ctl.Capabilities.CanRequeue && !ctl.Capabilities.ReadOnly {
			c.canRequeue = true
		}
	}
	c.Keys.setActions(!c.readOnly, !c.readOnly && c.canRequeue)
	c.Keys.setStates(len(c.ToggleStates()))
}

// Due reports whether a view whose last read was sent at last, and is
// still under way when inflight, is due to read again: a tenth early, so
// that a tick a little early does not skip a whole period.
func (c *Common) Due(inflight bool, last time.Time) bool {
	return !inflight && c.Now().Sub(last) >= c.Opts.Refresh-c.Opts.Refresh/10
}

// Pause is immediate (the root's pause.go): a read is stamped with the pauses so far.

// ReadMsg is a view's read as it arrives, with how many times the UI had
// been paused when it was sent (Common.Pauses).
type ReadMsg struct {
	Pauses int
	Msg    tea.Msg
}

// Stamp makes cmd, a view's read, answer with a ReadMsg.
func (c *Common) Stamp(cmd tea.Cmd) tea.Cmd {
	n := c.Pauses
	return func() tea.Msg { return ReadMsg{Pauses: n, Msg: cmd()} }
}
