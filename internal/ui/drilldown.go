package ui

import (
	"maps"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
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
	group          errorGroup
	offset, cursor int
	sel            string
	chosen         bool
	// fromGroups says the drill-down was opened from the group view:
	// esc goes back there, where the user came from.
	fromGroups bool
}

// showGroup shows the keys of one error group, and keeps the view it
// replaces. Drilling again from a drill-down keeps the first view: esc goes
// back to where the user was before any group (through the group view the
// last was opened from, when fromGroups).
func (t *topModel) showGroup(in view.ShowGroupIntent, fromGroups bool) tea.Cmd {
	if t.drill == nil {
		t.drill = &topView{controller: t.controller, states: maps.Clone(t.states), q: t.filter.Applied, group: t.group,
			offset: t.offset, cursor: t.cursor, sel: t.sel, chosen: t.chosen}
	}
	t.drill.fromGroups = fromGroups
	t.controller = in.Controller
	t.states = map[api.State]bool{}
	for _, s := range in.States {
		t.states[s] = true
	}
	t.group = errorGroup{pattern: in.Errors, fingerprint: in.Fingerprint}
	t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	return t.refresh()
}

// undoDrill restores the view from before the drill-down and says what it
// shows again; the root pops the drill-down's mode, and opens the group
// view again when the drill-down was opened from it.
func (t *topModel) undoDrill() view.LeftDrillIntent {
	v := t.drill
	t.drill = nil
	t.controller, t.states, t.group = v.controller, v.states, v.group
	t.filter.Set(v.q)
	t.offset, t.cursor, t.sel, t.chosen = v.offset, v.cursor, v.sel, v.chosen
	what := "every key"
	if v.q != "" {
		what = "keys matching " + widget.DescribeFilter(v.q)
	}
	if sel := t.stateList(); len(sel) > 0 {
		what += " " + view.InStates(sel)
	}
	// A report of what esc did, not a hint: "esc: back to …" read as one
	// once esc no longer went anywhere.
	if v.fromGroups {
		return view.LeftDrillIntent{Text: "left the error group: back to the error groups; esc then shows " + what + " of " + view.ScopeName(v.controller), ToGroups: true}
	}
	return view.LeftDrillIntent{Text: "left the error group: showing " + what + " of " + view.ScopeName(v.controller) + " again"}
}

// switchFromDrill is tab (or shift+tab) in a drill-down: an error group is
// one controller's, so the next controller's keys cannot be in it. Tab
// leaves the drill-down (its view before comes back: filter and states),
// shows the controller after the group's, and says so; esc then no longer
// goes back to the group.
func (t *topModel) switchFromDrill(back bool) view.Intent {
	from := t.controller
	t.undoDrill()
	t.controller = from
	t.controller = t.nextController(back)
	t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	return view.LeftDrillIntent{Text: "left the error group, which is " + view.ScopeName(from) + "'s only: showing " + view.ScopeName(t.controller)}
}

// keys is the top view's key map as it stands: esc is offered only when it
// does something (leave the drill-down, else clear the filter applied), and
// named for what it does.
func (t *topModel) keys() topKeys {
	k := topKeysOf(&t.c.Keys)
	switch {
	case t.drill != nil && t.drill.fromGroups:
		k.Back.SetHelp("esc", "back to error groups")
	case t.drill != nil:
		k.Back.SetHelp("esc", "leave error group")
	case t.filter.State == widget.FilterApplied:
		k.Back.SetHelp("esc", "clear filter")
	default:
		k.Back.SetEnabled(false)
	}
	if t.drill != nil {
		k.Controller.SetHelp("tab", "switch controller (leaves the group)")
	}
	return k
}

// errorGroup is the error group a drill-down shows: the pattern its keys'
// last errors match, and its fingerprint, which the header shows.
type errorGroup struct{ pattern, fingerprint string }
