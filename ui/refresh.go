package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The refresh clock: the view shown refreshes every Options.Refresh unless
// paused; ctrl+r refreshes it at once.

// autoRefresh refreshes the view shown (under help, the view help was
// opened over) when a refresh is due.
func (m *Model) autoRefresh() tea.Cmd {
	if m.c.Paused {
		return nil
	}
	md := m.viewUnder()
	v := m.viewAt(md)
	if !v.Stale() {
		return nil
	}
	v, cmd := v.Reload()
	m.setView(md, v)
	return cmd
}

// refreshNow refreshes the view shown at once (under help, the view help
// was opened over), and the table under it when the view reads it too.
func (m *Model) refreshNow() tea.Cmd {
	md := m.viewUnder()
	v, cmd := m.viewAt(md).ReloadNow()
	m.setView(md, v)
	if r, ok := v.(view.UnderReader); ok && r.ReadsUnder() {
		if i := m.find(md); i > 0 {
			under, read := m.stack[i-1].v.Reload()
			m.setView(m.stack[i-1].md, under)
			return tea.Batch(read, cmd)
		}
	}
	return cmd
}
