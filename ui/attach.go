package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// attached takes the picked pod's session in: the top view starts on it,
// with its refreshes and refresh clock. A failed attach leaves the picker
// up, with the error in the status line, to pick again.
func (m Model) attached(msg view.AttachedMsg) (tea.Model, tea.Cmd) {
	if m.view() != modePicker {
		return m, nil // the owned set closes it at exit
	}
	if p, ok := m.viewAt(modePicker).(view.Picker); ok {
		m.setView(modePicker, p.AttachDone())
	}
	if msg.Err != nil {
		return m, m.setStatus(widget.ErrText(msg.Err), true)
	}
	m.c.Conn.Session, m.c.Conn.Objects, m.c.Conn.Namespace = msg.Session, msg.Objects, msg.Pod.Namespace
	if m.c.Opts.Watch {
		msg.Session.Watch(m.c.Conn.Ctx)
	}
	// The picker is left for good; the table opens, fitted to the terminal.
	t, _ := view.NewTop(m.c).Resize()
	m.stack = []layer{{md: modeTop, v: t}}
	read := m.withTable((*view.Top).Refresh) // before m is returned
	return m, tea.Batch(read, tick(m.tickEvery()), m.setStatus("attached to "+msg.Pod.String(), false), awaitWatch(msg.Session))
}
