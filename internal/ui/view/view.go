package view

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// View is what the root asks of every view of the TUI (the table, a key's
// detail, the error groups, help, the pod picker, `top --for`): the root
// routes keys, draws, refreshes and resizes through it alone, in the manner
// of k9s' Component. A view is a value: each method that changes it returns the view as it
// is after, and the root stores it back in its slot.
//
// Adding a view is a file of this package with a model that implements
// View (and Receiver, when it reads), and one line in the root that
// registers it (registerView, ui/layer.go); the view that opens it
// returns an OpenIntent. The view's own update, view and refresh stay
// typed: the methods of View are their adapters, at the end of each
// view's file.
type View interface {
	// OnKey handles a key pressed while the view is on top of the stack.
	// The keys every view shares (quit, help, pause, refresh) never reach
	// it when its key map has them: the root handles those once (shared).
	OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent)
	// Render draws the view's body; the root adds the footer.
	Render() string
	// HintKeys is the view's key map: the hints line, and what ? explains.
	HintKeys() help.KeyMap
	// Stale reports whether the view's next read is due now (never for a
	// view that reads nothing).
	Stale() bool
	// Reload reads what the view shows again (the refresh clock); reloadNow
	// is ctrl+r's, which may read more (the read a pause would wait for).
	Reload() (View, tea.Cmd)
	ReloadNow() (View, tea.Cmd)
	// Resize lays the view out again for the terminal's new size.
	Resize() (View, tea.Cmd)
}

// HelpLead is a view that has something to say first in the ? view opened
// over it: what it had no room to show whole (the table's diagnosis).
type HelpLead interface {
	HelpLead() string
}

// FilterView is a view with a filter line: while Typing, keys and the
// cursor's blink go to the line (the root's modeFilter is this state of
// the view, not a layer of its own).
type FilterView interface {
	View
	Typing() bool
	OnFilterKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent)
	OnFilterInput(msg tea.Msg) (View, tea.Cmd)
}

// Receiver is a view that takes messages in: the answers of its reads.
// Every view receives its answers this one way: the root offers each view
// every message it does not route itself (keys, the clock, the actions'
// results), and names no view's answer; ok reports that the message was
// the view's, and in is what the view asks of the root after it (a note
// for the footer, the end of the UI), as a key's intent is. A read dropped
// because it was sent before the pause the UI is in arrives as a
// DroppedMsg, so that the view knows its read is no longer under way: the
// pause is a message, the root writes no view's fields.
type Receiver interface {
	Receive(msg tea.Msg) (v View, cmd tea.Cmd, in Intent, ok bool)
}

// DroppedMsg is Msg, a view's read, dropped: it was sent before the pause
// the UI is in (the root's pause.go).
type DroppedMsg struct{ Msg tea.Msg }

// OpenIntent opens View over the view shown, after Cmd (its first read):
// how a view registered with the root's registerView is opened. esc in it
// is its own BackIntent.
type OpenIntent struct {
	View View
	Cmd  tea.Cmd
}
