// Package ui is the terminal UI of `kubectl backoff top`: a live table of a
// controller's keys and their backoff, trouble first; a detail view that
// explains one key as `kubectl backoff describe` does; an incident view of
// the endpoint's exact error groups (v1/errors); and force-forget actions.
// When discovery found several instrumented pods, it first offers them in a
// picker (Options.Pods) and attaches to the one picked (Options.Attach).
//
//	s, err := inspector.Direct("http://127.0.0.1:8082", nil)
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	return ui.Run(ctx, ui.Options{Session: s, Refresh: time.Second})
//
// The model holds only state. Every fetch and every action runs in a tea.Cmd
// that calls package inspector and returns a typed message. The root holds
// a stack of the views themselves, as k9s's does: the view opened on (the
// table, the picker, `top --for`), the views opened over it (detail,
// groups, ?), each with its model; a drill-down, a filter line being
// typed and the forget dialog are the state of the view they are in
// (view.Driller, view.FilterView.Typing, view.Asker); opening
// pushes, esc pops
// (esc out of a drill-down goes back to the group view it was opened from;
// tab there leaves it, as an error group is one controller's). A
// key goes to the mode on top, which handles it with its own key map (a
// help.KeyMap, as bubbles' components have) and returns an intent (open a
// key, open help with its keys, ask to confirm an action, show a group's
// keys) that the root acts on; no view reads another's fields. The hints
// line is drawn from the top mode's key map and the ? view from the keys
// of the view it was opened over, and a status hint bound to a mode is
// drawn only while that mode is on the stack and not covered by a view, so
// neither can outlive what it says.
//
// The cursor follows a key, not a row: across refreshes and re-sorts it
// stays on the key the user chose, and when that key leaves the page it
// moves to its nearest neighbour and the status line says so. The group
// view refreshes on the same cadence, its cursor following its error group
// (controller and fingerprint).
//
// A refresh costs what fits on the screen: one v1/controllers call (counts,
// limiters and the retry forecast, counted by the endpoint), one page of
// v1/keys the size of the visible rows (read again when they change: a
// status shown, a diagnosis that wraps) — never the whole key set — and the
// retrying keys' error groups (v1/errors, a few groups counted by the
// endpoint), from which the header diagnoses the selected controller, or
// the worst one, in a line, two when it does not fit one
// (explain.DiagnoseController). Paused (p), the screen changes only when
// asked (ctrl+r, a new filter or sort): a read sent before the pause is
// dropped, and the page is not read again to fit. An endpoint never
// reached ends Run, after Options.GiveUp, with the error.
//
// The code is on three floors, nothing importing up: this package is the
// root (Model, its stack of views, the routing of keys and messages, the
// actions' reads, Options and Run); internal/ui/view holds the views, one
// file each, behind one View interface, with the state they share
// (view.Common) and the intents they return; internal/ui/widget holds the
// pieces they are drawn with. A view added is a file of package view and
// one line that registers it (registerView, layer.go): the root names no
// view anywhere else, and asks an open view for a role (a view's forecast,
// a key it shows, a refit, view/roles.go) by its interface
// (TestRootNamesNoView).
package ui
