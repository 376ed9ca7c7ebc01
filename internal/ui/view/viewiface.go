package view

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// view is what the root asks of every view of the TUI (the table, a key's
// detail, the error groups, help, the pod picker, `top --for`): the root
// routes keys, draws, refreshes and resizes through it alone, in the manner
// of k9s' Component. A view is a value: each method that changes it returns the view as it
// is after, and the root stores it back in its slot.
//
// Adding a view is a file with a model that implements view, and one line
// in viewSlots (the model's field in Model is its slot). The view's own
// update, view and refresh stay as they were, typed: the methods of view
// are their adapters.
type View interface {
	// onKey handles a key pressed while the view is on top of the stack.
	// The keys every view shares (quit, help, pause, refresh) never reach
	// it when its key map has them: the root handles those once (shared).
	OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent)
	// render draws the view's body; the root adds the footer.
	Render() string
	// hintKeys is the view's key map: the hints line, and what ? explains.
	HintKeys() help.KeyMap
	// stale reports whether the view's next read is due now (never for a
	// view that reads nothing).
	Stale() bool
	// reload reads what the view shows again (the refresh clock); reloadNow
	// is ctrl+r's, which may read more (the read a pause would wait for).
	Reload() (View, tea.Cmd)
	ReloadNow() (View, tea.Cmd)
	// resize lays the view out again for the terminal's new size.
	Resize() (View, tea.Cmd)
}

// filterView is a view with a filter line typed in modeFilter.
type FilterView interface {
	View
	OnFilterKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent)
	OnFilterInput(msg tea.Msg) (View, tea.Cmd)
}
