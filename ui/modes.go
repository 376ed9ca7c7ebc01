package ui

import (
	"slices"

	"charm.land/bubbles/v2/help"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// mode names an entry of the root's stack (layer). The bottom is the view
// the UI opens on (view.Opening: the table, the picker, `top --for`, the
// fleet); a view opened from it (a key's detail, the error groups, ?) is
// pushed over it and popped when left, so esc goes back to what was under
// it. Each view has the mode it is registered with (layer.go). A mode
// inside a view (a drill-down, its filter line being typed, the forget
// dialog over it) is that view's state, not a layer (modes). Keys go to
// the mode on top; the hints line is drawn from its key map; a status
// message that tells what a key does in a mode (a hint) is bound to that
// mode and drawn only while it is on the stack, so a hint cannot outlive
// what it says.
type mode int

// The modes of a view's state; the views' own follow (registerView).
const (
	modeNone    mode = iota // no mode: the zero value
	modeDrill               // a view showing one error group's keys (view.Driller)
	modeFilter              // the filter line of the view under it, typed
	modeConfirm             // the forget dialog, its reason input included
	// modePaused is not a layer: a pause outlives the view it was made in
	// (pause in the table, read a key, still paused), so it is the shared
	// flag view.Common.Paused. A hint can be bound to it all the same.
	modePaused
)

// viewModes are the modes that are views (register): what the screen's
// body shows is the topmost of them (? shows the help; filter, drill-down
// and dialog are drawn in or over the view under them).
var viewModes []mode

// layer is one entry of the stack: a view with the mode that shows it.
// The stack holds the views themselves, as k9s's does: a view opened is
// pushed with its model, and gone once popped; opened again, it starts
// anew.
type layer struct {
	md mode
	v  view.View
}

// pushView puts v, shown by md, on top of the stack. The stack is copied
// when grown: the root is a value, and an older copy of it must keep its
// own stack.
func (m *Model) pushView(md mode, v view.View) {
	m.stack = append(slices.Clip(m.stack), layer{md: md, v: v})
}

// pop takes the top mode off the stack; the bottom view stays.
func (m *Model) pop() {
	if len(m.stack) > 1 {
		m.stack = m.stack[:len(m.stack)-1]
	}
}

// popTo pops the modes over the topmost md; none when md is not on the stack.
func (m *Model) popTo(md mode) {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if m.stack[i].md == md {
			m.stack = m.stack[:i+1]
			return
		}
	}
}

// topMode is the mode keys go to: the top layer's, or the mode its view's
// state is in (a filter line typed, a drill-down).
func (m *Model) topMode() mode {
	modes := m.modes()
	return modes[len(modes)-1]
}

// modes are the modes open, bottom first: each layer's, followed by the
// modes its view's state is in — a drill-down (view.Driller), then a
// filter line typed (view.FilterView.Typing), then the dialog it asked
// (view.Asker). They are the views' state, not layers: nothing pushes or
// pops them.
func (m *Model) modes() []mode {
	out := make([]mode, 0, len(m.stack)+2)
	for _, l := range m.stack {
		out = append(append(out, l.md), statesOf(l.v)...)
	}
	return out
}

// statesOf are the modes v's state is in, in the order they open.
func statesOf(v view.View) []mode {
	var out []mode
	if d, ok := v.(view.Driller); ok && d.Drilling() {
		out = append(out, modeDrill)
	}
	if f, ok := v.(view.FilterView); ok && f.Typing() {
		out = append(out, modeFilter)
	}
	if a, ok := v.(view.Asker); ok && a.Dialog() != nil {
		out = append(out, modeConfirm)
	}
	return out
}

// view is the view the screen's body shows: the topmost view mode.
func (m *Model) view() mode {
	for _, l := range slices.Backward(m.stack) {
		if l.v != nil {
			return l.md
		}
	}
	return m.stack[0].md
}

// viewUnder is the view under the ? view (what help explains and what
// refreshes while it is open: view.Explainer), else the view shown.
func (m *Model) viewUnder() mode {
	for _, l := range slices.Backward(m.stack) {
		if _, explains := l.v.(view.Explainer); !explains && l.v != nil {
			return l.md
		}
	}
	return m.stack[0].md
}

// onStack reports whether md is on the stack now (paused: whether paused).
func (m *Model) onStack(md mode) bool {
	if md == modePaused {
		return m.c.Paused
	}
	return slices.Contains(m.modes(), md)
}

// find is the index of the topmost layer of md on the stack, -1 if none.
func (m *Model) find(md mode) int {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if m.stack[i].md == md {
			return i
		}
	}
	return -1
}

// shown reports whether md is on the stack and not covered by another
// view: a mode under the detail view opened from it (a drill-down) is kept
// to come back to, but what its hint says is not true there (esc leaves
// the detail view, not the drill-down). Paused: whether paused.
func (m *Model) shown(md mode) bool {
	if md == modePaused {
		return m.c.Paused
	}
	for _, s := range slices.Backward(m.modes()) {
		if s == md {
			return true
		}
		if slices.Contains(viewModes, s) {
			return false
		}
	}
	return false
}

// keysOf is md's key map: its hints, and what the ? view opened over it
// explains. The dialog's are its own (the dialog draws them in its box).
func (m *Model) keysOf(md mode) help.KeyMap {
	switch md {
	case modeFilter:
		return m.c.Keys.FilterKeys()
	case modeConfirm:
		if c := m.dialog(); c != nil {
			return c.KeyMap()
		}
		return m.viewAt(m.view()).HintKeys()
	}
	return m.viewAt(md).HintKeys()
}

// statusShown is the status message as drawn: none while it is bound to a
// mode that is no longer on the stack, or is covered by another view.
func (m Model) statusShown() string {
	if m.statusBound && !m.shown(m.statusMode) {
		return ""
	}
	return m.status
}
