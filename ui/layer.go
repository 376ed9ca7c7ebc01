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

// The views of the root, registered one way, one line each, in the order
// they are resized and offered messages (the table last): the mode that
// shows the view, where the root keeps it, and its title in the ? view
// opened over it. The first six keep a field each in Model (fieldSlot),
// which the intents that open them and the tests name; a view added takes
// one line, registerView, and no field.
var (
	_ = register(modeHelp, fieldSlot(func(m *Model) *view.Help { return &m.help }), "")
	_ = register(modePicker, fieldSlot(func(m *Model) *view.Picker { return &m.picker }), "")
	_ = register(modeDetail, fieldSlot(func(m *Model) *view.Detail { return &m.detail }), "a key's detail")
	_ = register(modeGroups, fieldSlot(func(m *Model) *view.Groups { return &m.groups }), "error groups")
	_ = register(modeFor, fieldSlot(func(m *Model) *view.For { return &m.forv }), "top --for")
	_ = register(modeTop, fieldSlot(func(m *Model) *view.Top { return &m.top }), "keys")

	modeChain = registerView[view.Chain]("why chain")
	modeFleet = registerView[view.Fleet]("fleet")
)

// viewSlots are where the root keeps each view, by the modes that show it
// (a drill-down is the table's, in its slot).
var viewSlots = map[mode]view.Slot[Model]{
	modeDrill: fieldSlot(func(m *Model) *view.Top { return &m.top }),
}

// viewOrder is every view once (the table once, not per mode), in the
// order registered.
var viewOrder []mode

// helpTitles name the view help was opened over, in its title.
var helpTitles = map[mode]string{}

// register registers the view md shows, kept in slot, titled title in ?:
// the one way every view is registered.
func register(md mode, slot view.Slot[Model], title string) mode {
	viewSlots[md] = slot
	if !slices.Contains(viewModes, md) {
		viewModes = append(viewModes, md)
	}
	viewOrder = append(viewOrder, md)
	if title != "" {
		helpTitles[md] = title
	}
	return md
}

// fieldSlot is the slot of a view kept in a field of Model.
func fieldSlot[V view.View](field func(*Model) *V) view.Slot[Model] {
	return view.SlotOf(field)
}

// registerView registers V, a view opened by a view.OpenIntent carrying
// one: it gets a mode of its own, which the stack pushes and pops as any
// view's, titled title in the ? view opened over it. The root keeps it in
// Model.extra, so it needs no field. The one line a view added takes,
// beside its file in package view:
//
//	var modeChain = registerView[view.Chain]("why chain")
func registerView[V view.View](title string) mode {
	md := nextMode
	nextMode++
	registered[reflect.TypeFor[V]()] = md
	return register(md, view.Slot[Model]{
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
	}, title)
}

// nextMode is the mode registerView gives next: after the fixed modes.
var nextMode = modePaused + 1

// registered are the modes of the views registerView registered, by type.
var registered = map[reflect.Type]mode{}

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
