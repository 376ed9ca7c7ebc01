package ui

import "github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"

// Pause is immediate: a read sent before p was pressed that arrives while
// paused is dropped, not shown, and resume reads again (it refreshes at
// once). Dropping is simpler than keeping it for resume: a kept read would
// be older than the one resume sends anyway, and each view's received
// would have to learn to hold one. A read sent while paused (ctrl+r, a
// filter or sort changed, the refresh after a forget) is the user's
// asking, and shown.

// dropped reports whether r was sent before the pause the UI is in; its
// view then learns so from a view.DroppedMsg (receive), and clears its read
// under way itself: the root writes no view's fields.
func (m *Model) dropped(r view.ReadMsg) bool {
	return m.c.Paused && r.Pauses != m.c.Pauses
}
