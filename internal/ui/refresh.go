package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The refresh clock: the view shown refreshes every Options.Refresh unless
// paused; ctrl+r refreshes it at once.

// autoRefresh refreshes the view shown (under help, the view help was
// opened over) when a refresh is due.
func (m *Model) autoRefresh() tea.Cmd {
	if m.c.paused {
		return nil
	}
	md := m.viewUnder()
	v := m.viewAt(md)
	if !v.stale() {
		return nil
	}
	v, cmd := v.reload()
	m.setView(md, v)
	return cmd
}

// due reports whether a view whose last read was sent at last, and is
// still under way when inflight, is due to read again: a tenth early, so
// that a tick a little early does not skip a whole period.
func (c *common) due(inflight bool, last time.Time) bool {
	return !inflight && c.now().Sub(last) >= c.opts.Refresh-c.opts.Refresh/10
}

// silentAfter is how many refresh periods a read may stay unanswered
// before the endpoint is said not to answer: two refreshes missed.
const silentAfter = 2

// silent reports whether the endpoint has not answered the read sent at
// quietSince (the first unanswered read) for silentAfter refreshes: a stopped process (SIGSTOP) takes
// the connection and says nothing, and the header must not go on saying
// "connected" (the read fails only at --request-timeout).
func (t *topModel) silent() bool {
	return t.inflight && !t.quietSince.IsZero() && t.c.now().Sub(t.quietSince) >= silentAfter*t.c.opts.Refresh
}

func (t *topModel) due() bool    { return t.c.due(t.inflight, t.lastSent) }
func (d *detailModel) due() bool { return d.c.due(d.inflight, d.lastSent) }
func (g *groupModel) due() bool  { return g.c.due(g.loading, g.lastSent) }
func (f *forModel) due() bool    { return f.c.due(f.inflight, f.lastSent) }

// refreshNow refreshes the view shown at once (under help, the view help
// was opened over), and the table under it when the view reads it too.
func (m *Model) refreshNow() tea.Cmd {
	md := m.viewUnder()
	v, cmd := m.viewAt(md).reloadNow()
	m.setView(md, v)
	if r, ok := v.(interface{ readsTable() bool }); ok && r.readsTable() {
		return tea.Batch(m.top.refresh(), cmd)
	}
	return cmd
}
