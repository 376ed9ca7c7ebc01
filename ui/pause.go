package ui

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// Pause is immediate: a read sent before p was pressed that arrives while
// paused is dropped, not shown, and resume reads again (it refreshes at
// once). Dropping is simpler than keeping it for resume: a kept read would
// be older than the one resume sends anyway, and each view's received
// would have to learn to hold one. A read sent while paused (ctrl+r, a
// filter or sort changed, the refresh after a forget) is the user's
// asking, and shown.

// dropped reports whether r was sent before the pause the UI is in; if so
// its view's read is no longer under way (ctrl+r's refreshOnce waits for
// one), and the top view asks for the diagnosis' groups on its next read,
// as it would have had this one been taken in.
func (m *Model) dropped(r view.ReadMsg) bool {
	if !m.c.Paused || r.Pauses == m.c.Pauses {
		return false
	}
	switch msg := r.Msg.(type) {
	case view.RefreshedMsg:
		if msg.GroupsAsked {
			m.top.GroupsAt = time.Time{}
		}
		if msg.Seq == m.top.Seq {
			m.top.Inflight = false
		}
	case view.DetailFetchedMsg:
		if msg.Controller == m.detail.Controller && msg.Key == m.detail.Key {
			m.detail.Inflight = false
		}
	case view.GroupsFetchedMsg:
		if msg.Seq == m.groups.Seq {
			m.groups.Loading = false
		}
	case view.ForFetchedMsg:
		m.forv.Inflight = false
	default: // a registered view's read: it learns it was dropped
		if mm, _, ok := m.receive(view.DroppedMsg{Msg: r.Msg}); ok {
			*m = mm
		}
	}
	return true
}
