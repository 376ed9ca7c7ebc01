package ui

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// view is what the root asks of every view of the TUI (the table, a key's
// detail, the error groups, help, the pod picker, `top --for`): the root
// routes keys, draws, refreshes and resizes through it alone, in the manner
// of k9s' Component. A view is a value: each method that changes it returns the view as it
// is after, and the root stores it back in its slot.
//
// Adding a view is a file with a model that implements view, and one line
// in viewSlots (the model's field in Model is its slot). The view's own
// update, view and refresh stay as they were, typed: the methods of view
// are their adapters.
type view interface {
	// onKey handles a key pressed while the view is on top of the stack.
	// The keys every view shares (quit, help, pause, refresh) never reach
	// it when its key map has them: the root handles those once (shared).
	onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent)
	// render draws the view's body; the root adds the footer.
	render() string
	// hintKeys is the view's key map: the hints line, and what ? explains.
	hintKeys() help.KeyMap
	// stale reports whether the view's next read is due now (never for a
	// view that reads nothing).
	stale() bool
	// reload reads what the view shows again (the refresh clock); reloadNow
	// is ctrl+r's, which may read more (the read a pause would wait for).
	reload() (view, tea.Cmd)
	reloadNow() (view, tea.Cmd)
	// resize lays the view out again for the terminal's new size.
	resize() (view, tea.Cmd)
}

// filterView is a view with a filter line typed in modeFilter.
type filterView interface {
	view
	onFilterKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent)
	onFilterInput(msg tea.Msg) (view, tea.Cmd)
}

// slot is where a view lives in the root: the root keeps one model per
// view, so a view left and opened again (detail, groups) starts from its
// last state, and tests read a view's state by its field.
type slot struct {
	get func(*Model) view
	set func(*Model, view)
}

// viewSlots registers the views, by the modes that show them (a drill-down
// is the table's). The order of viewOrder is the order they are resized in.
var viewSlots = map[mode]slot{
	modeTop:    {func(m *Model) view { return m.top }, func(m *Model, v view) { m.top = v.(topModel) }},
	modeDrill:  {func(m *Model) view { return m.top }, func(m *Model, v view) { m.top = v.(topModel) }},
	modeDetail: {func(m *Model) view { return m.detail }, func(m *Model, v view) { m.detail = v.(detailModel) }},
	modeGroups: {func(m *Model) view { return m.groups }, func(m *Model, v view) { m.groups = v.(groupModel) }},
	modeHelp:   {func(m *Model) view { return m.help }, func(m *Model, v view) { m.help = v.(helpModel) }},
	modePicker: {func(m *Model) view { return m.picker }, func(m *Model, v view) { m.picker = v.(pickerModel) }},
	modeFor:    {func(m *Model) view { return m.forv }, func(m *Model, v view) { m.forv = v.(forModel) }},
	modeChain:  {func(m *Model) view { return m.chain }, func(m *Model, v view) { m.chain = v.(chainModel) }},
}

// viewOrder is every view once (the table once, not per mode).
var viewOrder = []mode{modeHelp, modePicker, modeDetail, modeGroups, modeFor, modeChain, modeTop}

// viewAt is the view md shows; the table for a mode that is not a view.
func (m *Model) viewAt(md mode) view {
	if s, ok := viewSlots[md]; ok {
		return s.get(m)
	}
	return m.top
}

// setView stores v, as it is after an update, in md's slot.
func (m *Model) setView(md mode, v view) {
	if s, ok := viewSlots[md]; ok {
		s.set(m, v)
		return
	}
	m.top = v.(topModel)
}

// shared handles, once for every view, the keys its key map shares with the
// others: quit, help (over this view's keys), pause and refresh. It reports
// false for any other key, and for these where the view's key map lacks them
// (the picker's q is a letter of its filter; help's ? closes it).
func (m *Model) shared(v view, msg tea.KeyPressMsg) (tea.Cmd, intent, bool) {
	km := v.hintKeys()
	k := &m.c.keys
	switch {
	case key.Matches(msg, k.Quit) && hasBinding(km, k.Quit):
		return tea.Quit, nil, true
	case key.Matches(msg, k.Help) && hasBinding(km, k.Help):
		return nil, openHelpIntent{km}, true
	case key.Matches(msg, k.Pause) && hasBinding(km, k.Pause):
		return nil, pauseIntent{}, true
	case key.Matches(msg, k.Refresh) && hasBinding(km, k.Refresh):
		return nil, refreshIntent{}, true
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
