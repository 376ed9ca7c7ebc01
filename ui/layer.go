package ui

import (
	"maps"
	"reflect"
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// viewSlots registers the views, by the modes that show them (a drill-down
// is the table's): where the root keeps each (view.Slot). These six have
// a field each in Model, which the intents that open them and the tests
// name; a view added takes one line, registerView, and no field. The order
// of viewOrder is the order they are resized in.
var viewSlots = map[mode]view.Slot[Model]{
	modeTop:    view.SlotOf(func(m *Model) *view.Top { return &m.top }),
	modeDrill:  view.SlotOf(func(m *Model) *view.Top { return &m.top }),
	modeDetail: view.SlotOf(func(m *Model) *view.Detail { return &m.detail }),
	modeGroups: view.SlotOf(func(m *Model) *view.Groups { return &m.groups }),
	modeHelp:   view.SlotOf(func(m *Model) *view.Help { return &m.help }),
	modePicker: view.SlotOf(func(m *Model) *view.Picker { return &m.picker }),
	modeFor:    view.SlotOf(func(m *Model) *view.For { return &m.forv }),
}

// registerView registers V, a view opened by a view.OpenIntent carrying
// one: it gets a mode of its own, which the stack pushes and pops as any
// view's, with title naming it in the ? view opened over it. The root
// keeps it in Model.extra, so it needs no field. The one line a view added
// takes, beside its file in package view:
//
//	var modeChain = registerView[view.Chain]("why chain")
func registerView[V view.View](title string) mode {
	md := nextMode
	nextMode++
	viewSlots[md] = view.Slot[Model]{
		Get: func(m *Model) view.View { return m.extra[md] }, // nil until opened
		Set: func(m *Model, v view.View) {
			// A new map: the root is a value, and an older copy keeps its own.
			extra := maps.Clone(m.extra)
			if extra == nil {
				extra = map[mode]view.View{}
			}
			extra[md] = v
			m.extra = extra
		},
	}
	viewModes = append(viewModes, md)
	viewOrder = append(viewOrder, md)
	helpTitles[md] = title
	registered[reflect.TypeFor[V]()] = md
	return md
}

// The views added with registerView, one line each.
var modeChain = registerView[view.Chain]("why chain")

var modeFleet = registerView[view.Fleet]("fleet")

// nextMode is the mode registerView gives next: after the fixed modes.
var nextMode = modePaused + 1

// registered are the modes of the views registerView registered, by type.
var registered = map[reflect.Type]mode{}

// viewOrder is every view once (the table once, not per mode).
var viewOrder = []mode{modeHelp, modePicker, modeDetail, modeGroups, modeFor, modeTop}

// viewAt is the view md shows; the table for a mode that is not a view.
func (m *Model) viewAt(md mode) view.View {
	if s, ok := viewSlots[md]; ok {
		return s.Get(m)
	}
	return m.top
}

// setView stores v, as it is after an update, in md's slot.
func (m *Model) setView(md mode, v view.View) {
	if s, ok := viewSlots[md]; ok {
		s.Set(m, v)
		return
	}
	m.top = v.(view.Top)
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
