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
// they are resized and offered messages: each gets a mode of its own, and
// its title in the ? view opened over it. The view itself is kept on the
// stack (modes.go's layer), not in the root; this table is the one place
// the root names a view (TestRootNamesNoView): the rest asks a view for a
// role by its interface (view/roles.go), and the views open each other
// with intents. The mode names are the tests'.
var (
	modeHelp   = registerView[view.Help]("")
	modePicker = registerView[view.Picker]("")
	modeDetail = registerView[view.Detail]("a key's detail")
	modeGroups = registerView[view.Groups]("error groups")
	modeFor    = registerView[view.For]("top --for")
	modeTop    = registerView[view.Top]("keys")
	modeChain  = registerView[view.Chain]("why chain")
	modeFleet  = registerView[view.Fleet]("fleet")
)

// viewOrder is every view once, in the order registered.
var viewOrder []mode

// helpTitles name the view help was opened over, in its title.
var helpTitles = map[mode]string{}

// registerView registers V, a view opened by a view.OpenIntent carrying
// one (or the view the UI opens on, view.Opening): it gets a mode of its
// own, which the stack pushes and pops as any view's, titled title in the
// ? view opened over it. The one line a view added takes, beside its file
// in package view:
//
//	modeChain = registerView[view.Chain]("why chain")
func registerView[V view.View](title string) mode {
	md := nextMode
	nextMode++
	registered[reflect.TypeFor[V]()] = md
	viewModes = append(viewModes, md)
	viewOrder = append(viewOrder, md)
	if title != "" {
		helpTitles[md] = title
	}
	return md
}

// nextMode is the mode registerView gives next: after the modes of a
// view's state (modes.go).
var nextMode = modePaused + 1

// modeOf is the mode v is registered with; the mode of no view when its
// type is not registered.
func modeOf(v view.View) (mode, bool) {
	md, ok := registered[reflect.TypeOf(v)]
	return md, ok
}

// registered are the modes of the views registered, by type.
var registered = map[reflect.Type]mode{}

// viewAt is the view md shows, as the stack holds it: nil when md is not
// open; for a mode of a view's state (a drill-down, a filter line typed,
// the dialog), the view in it.
func (m *Model) viewAt(md mode) view.View {
	if i := m.layerOf(md); i >= 0 {
		return m.stack[i].v
	}
	return nil
}

// setView stores v, as it is after an update, in md's layer (for a mode of
// a view's state, the layer of the view in it); nothing when md is not
// open.
func (m *Model) setView(md mode, v view.View) {
	if i := m.layerOf(md); i >= 0 {
		// A new stack: the root is a value, and an older copy keeps its own.
		m.stack = slices.Clone(m.stack)
		m.stack[i].v = v
	}
}

// layerOf is the index of the topmost layer that shows md: its view's,
// or for a mode of a view's state the view's in that state; -1 if none.
func (m *Model) layerOf(md mode) int {
	if slices.Contains(viewModes, md) {
		return m.find(md)
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		if slices.Contains(statesOf(m.stack[i].v), md) {
			return i
		}
	}
	return -1
}

// topmost is the index of the topmost layer whose view has the role ok
// tells (an interface of view/roles.go); -1 if none.
func (m *Model) topmost(ok func(view.View) bool) int {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if ok(m.stack[i].v) {
			return i
		}
	}
	return -1
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
