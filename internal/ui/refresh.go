package ui

import (
	tea "charm.land/bubbletea/v2"
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

// silentAfter is how many refresh periods a read may stay unanswered
// before the endpoint is said not to answer: two refreshes missed.
const silentAfter = 2

// silent reports whether the endpoint has not answered the read sent at
// quietSince (the first unanswered read) for silentAfter refreshes: a stopped process (SIGSTOP) takes
// the connection and says nothing, and the header must not go on saying
// "connected" (the read fails only at --request-timeout).
func (t *topModel) silent() bool {
	return t.inflight && !t.quietSince.IsZero() && t.c.Now().Sub(t.quietSince) >= silentAfter*t.c.Opts.Refresh
}

func (t *topModel) due() bool { return t.c.Due(t.inflight, t.lastSent) }

// refreshNow refreshes the view shown at once (under help, the view help
// was opened over), and the table under it when the view reads it too.
func (m *Model) refreshNow() tea.Cmd {
	md := m.viewUnder()
	v, cmd := m.viewAt(md).ReloadNow()
	m.setView(md, v)
	if r, ok := v.(interface{ ReadsTable() bool }); ok && r.ReadsTable() {
		return tea.Batch(m.top.refresh(), cmd)
	}
	return cmd
}
