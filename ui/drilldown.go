package ui

import (
	"maps"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A drill-down (enter on an error group) sets the top view's error group
// (a pattern over the last errors, beside the user's own filter, which
// stays), controller and states at once; esc takes them back, with the
// cursor, so the user lands where they left rather than on a view half
// theirs and half the group's.

// topView is what a drill-down changes in the top view, kept to restore.
type topView struct {
	controller     string
	states         map[api.State]bool
	q              string
	group          errorGroup
	offset, cursor int
	sel            string
	chosen         bool
}

// showGroup shows the keys of one error group, and keeps the view it
// replaces. Drilling again from a drill-down keeps the first view: esc goes
// back to where the user was before any group.
func (t *topModel) showGroup(in showGroupIntent) tea.Cmd {
	if t.drill == nil {
		t.drill = &topView{controller: t.controller, states: maps.Clone(t.states), q: t.filter.applied, group: t.group,
			offset: t.offset, cursor: t.cursor, sel: t.sel, chosen: t.chosen}
	}
	t.controller = in.controller
	t.states = map[api.State]bool{}
	for _, s := range in.states {
		t.states[s] = true
	}
	t.group = errorGroup{pattern: in.errors, fingerprint: in.fingerprint}
	t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	return t.refresh()
}

// undoDrill restores the view from before the drill-down and says what it
// shows again; the root pops the drill-down's mode.
func (t *topModel) undoDrill() intent {
	v := t.drill
	t.drill = nil
	t.controller, t.states, t.group = v.controller, v.states, v.group
	t.filter.set(v.q)
	t.offset, t.cursor, t.sel, t.chosen = v.offset, v.cursor, v.sel, v.chosen
	what := "every key"
	if v.q != "" {
		what = "keys matching " + describeFilter(v.q)
	}
	if sel := t.stateList(); len(sel) > 0 {
		what += " " + inStates(sel)
	}
	// A report of what esc did, not a hint: "esc: back to …" read as one
	// once esc no longer went anywhere.
	return leftDrillIntent{text: "left the error group: showing " + what + " of " + scopeName(v.controller) + " again"}
}

// errorGroup is the error group a drill-down shows: the pattern its keys'
// last errors match, and its fingerprint, which the header shows.
type errorGroup struct{ pattern, fingerprint string }
