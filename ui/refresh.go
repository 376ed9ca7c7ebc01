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
	if m.viewUnder() == modeFor {
		if !m.forv.inflight && m.c.now().Sub(m.forv.lastSent) >= m.c.opts.Refresh-m.c.opts.Refresh/10 {
			return m.forv.refresh()
		}
		return nil
	}
	if m.c.conn.session == nil {
		return nil
	}
	due := func(inflight bool, last time.Time) bool {
		return !inflight && m.c.now().Sub(last) >= m.c.opts.Refresh-m.c.opts.Refresh/10
	}
	switch m.viewUnder() {
	case modeDetail:
		if due(m.detail.inflight, m.detail.lastSent) {
			return m.detail.refresh()
		}
	case modeGroups:
		if due(m.groups.loading, m.groups.lastSent) {
			return m.groups.refresh()
		}
	default:
		if due(m.top.inflight, m.top.lastSent) {
			return m.top.refresh()
		}
	}
	return nil
}

// refreshNow refreshes the view shown at once.
func (m *Model) refreshNow() tea.Cmd {
	switch m.viewUnder() {
	case modeFor:
		if m.forv.inflight {
			return nil // one read at a time: the asker is not shared
		}
		return m.forv.refresh()
	case modeDetail:
		return m.detail.refresh()
	case modeGroups:
		return tea.Batch(m.top.refresh(), m.groups.refresh())
	}
	return m.top.refresh()
}
