package ui

import (
	"reflect"
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The views of the root, registered one way, one line each, in the order
// they are resized and offered messages (the table last): the mode that
// shows the view and its title in the ? view opened over it. The view
// itself is kept on the stack (modes.go's layer), not in the root.
var (
	_ = register[view.Help](modeHelp, "")
	_ = register[view.Picker](modePicker, "")
	_ = register[view.Detail](modeDetail, "a key's detail")
	_ = register[view.Groups](modeGroups, "error groups")
	_ = register[view.For](modeFor, "top --for")
	_ = register[view.Top](modeTop, "keys")

	modeChain = registerView[view.Chain]("why chain")
	modeFleet = registerView[view.Fleet]("fleet")
)

// viewOrder is every view once (the table once, not per mode), in the
// order registered.
var viewOrder []mode

// helpTitles name the view help was opened over, in its title.
var helpTitles = map[mode]string{}

// register registers V, the view md shows, titled title in ?: the one way
// every view is registered.
func register[V view.View](md mode, title string) mode {
	registered[reflect.TypeFor[V]()] = md
	if !slices.Contains(viewModes, md) {
		viewModes = append(viewModes, md)
	}
	viewOrder = append(viewOrder, md)
	if title != "" {
		helpTitles[md] = title
	}
	return md
}

// registerView registers V, a view opened by a view.OpenIntent carrying
// one: it gets a mode of its own, which the stack pushes and pops as any
// view's, titled title in the ? view opened over it. The one line a view
// added takes, beside its file in package view:
//
//	var modeChain = registerView[view.Chain]("why chain")
func registerView[V view.View](title string) mode {
	md := nextMode
	nextMode++
	return register[V](md, title)
}

// nextMode is the mode registerView gives next: after the fixed modes.
var nextMode = modePaused + 1

// registered are the modes of the views registered, by type.
var registered = map[reflect.Type]mode{}

// viewAt is the view md shows, as the stack holds it: nil when md is not
// open; the table for a mode inside it (a drill-down, its filter line).
func (m *Model) viewAt(md mode) view.View {
	if !slices.Contains(viewModes, md) {
		return m.table()
	}
	if i := m.find(md); i >= 0 {
		return m.stack[i].v
	}
	return nil
}

// setView stores v, as it is after an update, in md's layer (the table's
// for a mode inside it); nothing when md is not open.
func (m *Model) setView(md mode, v view.View) {
	if !slices.Contains(viewModes, md) {
		md = modeTop
	}
	if i := m.find(md); i >= 0 {
		// A new stack: the root is a value, and an older copy keeps its own.
		m.stack = slices.Clone(m.stack)
		m.stack[i].v = v
	}
}

// table is the top view as the stack holds it; a table never read when the
// UI shows none (the picker, `top --for`, the fleet), as before it opens.
func (m *Model) table() view.Top {
	if t, ok := m.viewAt(modeTop).(view.Top); ok {
		return t
	}
	return view.NewTop(m.c)
}

// withTable changes the table on the stack through f.
func (m *Model) withTable(f func(t *view.Top) tea.Cmd) tea.Cmd {
	t := m.table()
	cmd := f(&t)
	m.setView(modeTop, t)
	return cmd
}

// shared handles, once for every view, the keys its key map shares with the
// others: quit, help (over this view's keys), pause and refresh. It reports
// false for any other key, and for these where the view's key map lacks them
// (the picker's q is a letter of its filter; help's ? closes it).
func (m *Model) shared(v view.View, msg tea.KeyPressMsg) (tea.Cmd, view.Intent, bool) {
	km := v.HintKeys()
	k := &m.c.Keys
	switch {
	case key.Matches(msg, k.Quit) && hasBinding(km, k.Quit):
		return tea.Quit, nil, true
	case key.Matches(msg, k.Help) && hasBinding(km, k.Help):
		return nil, view.OpenHelpIntent{Keys: km}, true
	case key.Matches(msg, k.Pause) && hasBinding(km, k.Pause):
		return nil, view.PauseIntent{}, true
	case key.Matches(msg, k.Refresh) && hasBinding(km, k.Refresh):
		return nil, view.RefreshIntent{}, true
	}
	return nil, nil, false
}

// hasBinding reports whether km lists b (the same keys), in its short or
// full help.
func hasBinding(km help.KeyMap, b key.Binding) bool {
	same := func(o key.Binding) bool { return slices.Equal(o.Keys(), b.Keys()) }
	if slices.ContainsFunc(km.ShortHelp(), same) {
		return true
	}
	for _, col := range km.FullHelp() {
		if slices.ContainsFunc(col, same) {
			return true
		}
	}
	return false
}
