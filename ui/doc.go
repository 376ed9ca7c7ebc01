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
// that calls package inspector and returns a typed message. Each view (top,
// detail, groups, picker, help) handles its own keys and returns an intent
// (open a key, ask to confirm an action, show a group's keys) that the root
// acts on; the top view and the picker share one filter component. The
// forget dialog owns its keys (a help.KeyMap). The root derives a stack of
// modes (the view, a drill-down or a filter in it, the dialog, its reason
// being typed, paused); a status hint bound to a mode is drawn only while
// that mode is on the stack, so it cannot outlive what it says.
//
// The cursor follows a key, not a row: across refreshes and re-sorts it
// stays on the key the user chose, and when that key leaves the page it
// moves to its nearest neighbour and the status line says so. The group
// view refreshes on the same cadence, its cursor following its error group
// (controller and fingerprint).
//
// A refresh costs what fits on the screen: one v1/controllers call (counts,
// limiters and the retry forecast, counted by the endpoint), one page of
// v1/keys the size of the visible rows — never the whole key set — and the
// retrying keys' error groups (v1/errors, a few groups counted by the
// endpoint), from which the header diagnoses the selected controller, or
// the worst one, in a line, two when it does not fit one
// (explain.DiagnoseController). An
// endpoint never reached ends Run, after Options.GiveUp, with the error.
package ui
