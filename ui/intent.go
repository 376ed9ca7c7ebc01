package ui

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// An intent is what a sub-model asks the root to do after handling a key:
// the sub-models own their keys, the root owns the views and the dialog.
// Each is a small struct; nil is no intent.
type intent any

// openKeyIntent opens the detail view on a key.
type openKeyIntent struct{ controller, key string }

// openGroupsIntent opens the error groups of the top view's scope.
type openGroupsIntent struct{}

// closeHelpIntent returns to the view help was opened from.
type closeHelpIntent struct{}

// backIntent returns to the top view.
type backIntent struct{}

// askIntent asks to confirm an action.
type askIntent struct{ act action }

// showGroupIntent shows the keys of one error group in the top view: errors
// is the pattern their last errors match (an error filter beside the top
// view's own), fingerprint the group's name.
type showGroupIntent struct {
	controller, errors, fingerprint string
	states                          []api.State
}

// noteIntent shows a status message.
type noteIntent struct {
	text  string
	isErr bool
}
