// Package view holds the views of `kubectl backoff top`, one file each:
// the table of keys (top.go, over its read model in topmodel.go, with its
// renderers beside it, each a type handed what it draws: TopHeader in
// header.go and diagnosis.go, TopTable in table.go, TopLegend in
// legend.go; toprender.go hands them), a key's detail (detail.go), the error groups
// (group.go), help (helpview.go), the pod picker (picker.go) and `top
// --for` (forview.go). Each is a value that implements View; the root
// (ui) holds the views open on its stack, routes keys, draws, refreshes and
// resizes through View alone, and acts on the Intent a view returns: no
// view reads another's fields, and no view imports the root.
//
//	c := &view.Common{Width: 80, Height: 24, Styles: widget.NewStyles(true), Keys: view.NewKeyMap(),
//		Opts: opts, SeenMarks: map[string]bool{}, Conn: view.Conn{Ctx: ctx, Session: s, Owned: &view.Sessions{}}}
//	top := view.NewTop(c)
//	read := top.Refresh() // the first read: a tea.Cmd answering a view.ReadMsg
//	var v view.View = top
//	v, cmd, in := v.OnKey(msg) // the root stores v back; in is what it must do, e.g. view.OpenIntent
//
// Common is what every view shares: the terminal's size, the styles, the
// key catalog, the options and the connection. A view's reads are tea.Cmds
// beside it (read.go, topread.go), stamped with the pauses so far
// (Common.Stamp), so that the root drops a read sent before a pause. Every
// view takes its answers in one way, Receiver: the root offers each view
// what it does not route itself and names no view's answer; a read dropped
// by a pause comes back as a DroppedMsg, and what a view asks after an
// answer (a note for the footer, the end of the UI) is an Intent.
//
// Adding a view is a file here with a model that implements View (and
// Receiver when it reads), and one line in the root that registers it
// (registerView, ui/layer.go); the view that opens it returns an
// OpenIntent (OpenKey, OpenHelp build the detail's and help's). Every view
// is registered in that one table, and held the same way: on the root's
// stack while open, gone once left; the view the UI opens on is chosen
// here (Opening). The root names no view: what it needs of one beyond
// View — a forecast, a key shown, a refit, a read when shown again — it
// asks by the role's interface (roles.go), which the views that have it
// implement.
package view
