package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// watchEventMsg says one of the session's watches had an event: the page
// or the controllers changed (or a bookmark came, or a stream broke).
type watchEventMsg struct{ s *inspector.Session }

// awaitWatch waits for s's next watch event; nil when s does not watch,
// and the view is then redrawn on the refresh clock alone.
func awaitWatch(s *inspector.Session) tea.Cmd {
	if s == nil || s.Events() == nil {
		return nil
	}
	ch := s.Events()
	return func() tea.Msg {
		<-ch
		return watchEventMsg{s}
	}
}

// watchEvent redraws the table on a watch's event, rather than on the
// next tick: the read it starts is served from the watches' mirrors, so it
// costs the endpoint nothing, and a change shows within one of the
// endpoint's ticks. The wait is armed again for the next event.
func (m Model) watchEvent(msg watchEventMsg) (tea.Model, tea.Cmd) {
	if msg.s != m.c.Conn.Session {
		return m, nil // a session left behind: its wait ends here
	}
	next := awaitWatch(msg.s)
	md := m.view()
	w, watches := m.viewAt(md).(view.Watcher)
	if m.c.Paused || !watches {
		return m, next
	}
	v, read := w.Watched()
	m.setView(md, v) // before m is returned
	if read == nil {
		return m, next // a read under way shows the change
	}
	return m, tea.Batch(next, read)
}
