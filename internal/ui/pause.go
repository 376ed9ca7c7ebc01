package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Pause is immediate: a read sent before p was pressed that arrives while
// paused is dropped, not shown, and resume reads again (it refreshes at
// once). Dropping is simpler than keeping it for resume: a kept read would
// be older than the one resume sends anyway, and each view's received
// would have to learn to hold one. A read sent while paused (ctrl+r, a
// filter or sort changed, the refresh after a forget) is the user's
// asking, and shown.

// readMsg is a view's read as it arrives, with how many times the UI had
// been paused when it was sent (common.pauses).
type readMsg struct {
	pauses int
	msg    tea.Msg
}

// stamp makes cmd, a view's read, answer with a readMsg.
func (c *common) stamp(cmd tea.Cmd) tea.Cmd {
	n := c.pauses
	return func() tea.Msg { return readMsg{pauses: n, msg: cmd()} }
}

// dropped reports whether r was sent before the pause the UI is in; if so
// its view's read is no longer under way (ctrl+r's refreshOnce waits for
// one), and the top view asks for the diagnosis' groups on its next read,
// as it would have had this one been taken in.
func (m *Model) dropped(r readMsg) bool {
	if !m.c.paused || r.pauses == m.c.pauses {
		return false
	}
	switch msg := r.msg.(type) {
	case refreshedMsg:
		if msg.groupsAsked {
			m.top.groupsAt = time.Time{}
		}
		if msg.seq == m.top.seq {
			m.top.inflight = false
		}
	case detailFetchedMsg:
		if msg.controller == m.detail.controller && msg.key == m.detail.key {
			m.detail.inflight = false
		}
	case groupsFetchedMsg:
		if msg.seq == m.groups.seq {
			m.groups.loading = false
		}
	case forFetchedMsg:
		m.forv.inflight = false
	}
	return true
}
