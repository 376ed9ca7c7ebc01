package view

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// An intent is what a view asks the root to do after handling a key: the
// views own their keys, the root owns the stack of views (what is open)
// and what is shared (the status line, the pause; the dialog is the
// asking view's, view.Asker, which the root opens and answers). Each is a
// small struct carrying what the root needs, so that the root never reads
// a view's fields; nil is no intent.
type Intent any

// FooterIntent is a view's word for the footer after an answer: Note, said
// while the view is shown; else, when the footer is free, Legend's (asked
// only then: it marks what it explains as said).
type FooterIntent struct {
	Note   string
	Legend func() string
}

// QuitIntent ends the UI with Err: an endpoint that never answered.
type QuitIntent struct{ Err error }

// GroupsScope is the scope the error groups view opens on: the top view's
// controller, the states it shows (none: every failing one) and its filter.
type GroupsScope struct {
	Controller, Filter string
	States             []api.State
}

// OpenHelpIntent opens the ? view over the view shown, explaining keys:
// that view's key map.
type OpenHelpIntent struct{ Keys help.KeyMap }

// CloseHelpIntent returns to the view help was opened from.
type CloseHelpIntent struct{}

// BackIntent leaves the view shown for the one under it.
type BackIntent struct{}

// TypingIntent says a view's filter line started (true) or stopped being
// typed: the filter's mode is pushed or popped.
type TypingIntent bool

// PauseIntent pauses the refresh, or resumes it.
type PauseIntent struct{}

// RefreshIntent refreshes the view shown now.
type RefreshIntent struct{}

// AskIntent asks to confirm an action.
type AskIntent struct{ Act widget.Action }

// AnswerIntent is the dialog's answer: the action confirmed (with its
// reason), or nil when it was declined.
type AnswerIntent struct{ Act *widget.Action }

// ShowGroupIntent shows the keys of one error group in the top view: errors
// is the pattern their last errors match (an error filter beside the top
// view's own), fingerprint the group's name. From is the view that asked
// (the error groups), which esc out of the drill-down goes back to as it
// was; nil when none.
type ShowGroupIntent struct {
	Controller, Errors, Fingerprint string
	States                          []api.State
	From                            View
}

// LeftDrillIntent says the top view left its drill-down, and what it shows
// again; Back, when not nil, is the group view it was opened from, as it
// was: the root opens it again, read anew.
type LeftDrillIntent struct {
	Text string
	Back View
}

// OpenAnswerKeyIntent opens the key of an answer (the `top --for` view's,
// the chain view's) in the detail view: Shown is the answer as escaped for
// the screen, Raw as read (the names a lookup must use). The root offers
// it to the open views (Receiver): the one that holds the sessions to
// the answer's controller (`top --for`'s) attaches, and opens the detail
// with an OpenWaitedIntent.
type OpenAnswerKeyIntent struct{ Shown, Raw *objwhy.Answer }

// OpenWaitedIntent opens a view the user waited for (a key's detail after
// attaching to its controller): only if the user is still where they
// asked for it, since a view opened over another they moved on to would
// take them away from it. Open is called only then: it builds the view,
// and its first read, and swaps what the view reads through.
type OpenWaitedIntent struct {
	Open func() (View, tea.Cmd)
}

// StartIntent starts the UI afresh on View, its first read Cmd: the whole
// stack is replaced, the refresh clock and the session's watch start, and
// Note is said in the status line. The picker asks it once a pod is
// attached.
type StartIntent struct {
	View View
	Cmd  tea.Cmd
	Note string
}

// NoteIntent shows a status message.
type NoteIntent struct {
	Text  string
	IsErr bool
}
