package ui

import (
	"charm.land/bubbles/v2/help"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// An intent is what a view asks the root to do after handling a key: the
// views own their keys, the root owns the stack of modes (what is open)
// and what is shared (the status line, the pause, the dialog). Each is a
// small struct carrying what the root needs, so that the root never reads
// a view's fields; nil is no intent.
type intent any

// openKeyIntent opens the detail view on a key.
type openKeyIntent struct{ controller, key string }

// openGroupsIntent opens the error groups of the top view's scope: its
// controller, the states it shows (none: every failing one) and its filter.
type openGroupsIntent struct {
	controller, filter string
	states             []api.State
}

// openHelpIntent opens the ? view over the view shown, explaining keys:
// that view's key map.
type openHelpIntent struct{ keys help.KeyMap }

// closeHelpIntent returns to the view help was opened from.
type closeHelpIntent struct{}

// backIntent leaves the view shown for the one under it.
type backIntent struct{}

// typingIntent says a view's filter line started (true) or stopped being
// typed: the filter's mode is pushed or popped.
type typingIntent bool

// pauseIntent pauses the refresh, or resumes it.
type pauseIntent struct{}

// refreshIntent refreshes the view shown now.
type refreshIntent struct{}

// askIntent asks to confirm an action.
type askIntent struct{ act action }

// answerIntent is the dialog's answer: the action confirmed (with its
// reason), or nil when it was declined.
type answerIntent struct{ act *action }

// showGroupIntent shows the keys of one error group in the top view: errors
// is the pattern their last errors match (an error filter beside the top
// view's own), fingerprint the group's name.
type showGroupIntent struct {
	controller, errors, fingerprint string
	states                          []api.State
}

// leftDrillIntent says the top view left its drill-down, and what it shows
// again; toGroups, that the group view it was opened from opens again.
type leftDrillIntent struct {
	text     string
	toGroups bool
}

// openAnswerKeyIntent opens the key of an answer (the `top --for` view's,
// the chain view's) in the detail view: shown is the answer as escaped for
// the screen, raw as read (the names a lookup must use).
type openAnswerKeyIntent struct{ shown, raw *objwhy.Answer }

// openChainIntent opens the chain view on an answer's chain.
type openChainIntent struct{ shown, raw *objwhy.Answer }

// noteIntent shows a status message.
type noteIntent struct {
	text  string
	isErr bool
}
