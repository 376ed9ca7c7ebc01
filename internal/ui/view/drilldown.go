package view

import (
	"maps"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
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
	group          ErrorGroup
	offset, cursor int
	sel            string
	chosen         bool
	// fromGroups says the drill-down was opened from the group view:
	// esc goes back there, where the user came from: groups, as it was.
	fromGroups bool
	groups     View
}

// ShowGroup shows the keys of one error group, and keeps the view it
// replaces. Drilling again from a drill-down keeps the first view: esc goes
// back to where the user was before any group (through the group view the
// last was opened from, from, when it was opened from one; nil when not).
func (t *Top) ShowGroup(in ShowGroupIntent, from View) tea.Cmd {
	if t.Drill == nil {
		t.Drill = &topView{controller: t.Controller, states: maps.Clone(t.states), q: t.Filter.Applied, group: t.Group,
			offset: t.Offset, cursor: t.Cursor, sel: t.Sel, chosen: t.chosen}
	}
	t.Drill.fromGroups, t.Drill.groups = from != nil, from
	t.Controller = in.Controller
	t.states = map[api.State]bool{}
	for _, s := range in.States {
		t.states[s] = true
	}
	t.Group = ErrorGroup{Pattern: in.Errors, Fingerprint: in.Fingerprint}
	t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
	return t.Refresh()
}

// undoDrill restores the view from before the drill-down and says what it
// shows again; the root opens the group view again when the drill-down was
// opened from it (LeftDrillIntent.Back).
func (t *Top) undoDrill() LeftDrillIntent {
	v := t.Drill
	t.Drill = nil
	t.Controller, t.states, t.Group = v.controller, v.states, v.group
	t.Filter.Set(v.q)
	t.Offset, t.Cursor, t.Sel, t.chosen = v.offset, v.cursor, v.sel, v.chosen
	what := "every key"
	if v.q != "" {
		what = "keys matching " + widget.DescribeFilter(v.q)
	}
	if sel := t.StateList(); len(sel) > 0 {
		what += " " + InStates(sel)
	}
	// A report of what esc did, not a hint: "esc: back to …" read as one
	// once esc no longer went anywhere.
	if v.fromGroups {
		return LeftDrillIntent{Text: "left the error group: back to the error groups; esc then shows " + what + " of " + ScopeName(v.controller), Back: v.groups}
	}
	return LeftDrillIntent{Text: "left the error group: showing " + what + " of " + ScopeName(v.controller) + " again"}
}

// switchFromDrill is tab (or shift+tab) in a drill-down: an error group is
// one controller's, so the next controller's keys cannot be in it. Tab
// leaves the drill-down (its view before comes back: filter and states),
// shows the controller after the group's, and says so; esc then no longer
// goes back to the group.
func (t *Top) switchFromDrill(back bool) Intent {
	from := t.Controller
	t.undoDrill()
	t.Controller = from
	t.Controller = t.nextController(back)
	t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
	return LeftDrillIntent{Text: "left the error group, which is " + ScopeName(from) + "'s only: showing " + ScopeName(t.Controller)}
}

// Drilling reports whether the view shows one error group's keys: the
// mode the root names modeDrill, state of this view.
func (t Top) Drilling() bool { return t.Drill != nil }

// Keys is the top view's key map as it stands: esc is offered only when it
// does something (leave the drill-down, else clear the filter applied), and
// named for what it does.
func (t *Top) Keys() TopKeys {
	k := TopKeysOf(&t.C.Keys)
	switch {
	case t.Drill != nil && t.Drill.fromGroups:
		k.Back.SetHelp("esc", "back to error groups")
	case t.Drill != nil:
		k.Back.SetHelp("esc", "leave error group")
	case t.Filter.State == widget.FilterApplied:
		k.Back.SetHelp("esc", "clear filter")
	default:
		k.Back.SetEnabled(false)
	}
	if t.Drill != nil {
		k.Controller.SetHelp("tab", "switch controller (leaves the group)")
	}
	return k
}

// ErrorGroup is the error group a drill-down shows: the pattern its keys'
// last errors match, and its fingerprint, which the header shows.
type ErrorGroup struct{ Pattern, Fingerprint string }
