package ui

import "slices"

// mode is one entry of the root's stack of modes: the view shown, the
// modes inside it (a drill-down, a filter being typed) and what is drawn
// over it (the dialog, its reason being typed). A status message that
// tells what a key does in a mode is bound to that mode: it is drawn only
// while the mode is on the stack, so a hint cannot outlive what it says.
type mode int

const (
	modeTop mode = iota
	modeDrill
	modeFilter
	modeDetail
	modeGroups
	modeHelp
	modePicker
	modeConfirm
	modeReason
	modePaused
)

// modes is the stack now, bottom first: paused (a property of every
// view), the view shown and its own modes, then the dialog.
func (m Model) modes() []mode {
	var s []mode
	if m.c.paused {
		s = append(s, modePaused)
	}
	switch m.state {
	case viewDetail:
		s = append(s, modeDetail)
	case viewGroups:
		s = append(s, modeGroups)
	case viewHelp:
		s = append(s, modeHelp)
	case viewPicker:
		s = append(s, modePicker)
	default:
		s = append(s, modeTop)
		if m.top.drill != nil {
			s = append(s, modeDrill)
		}
		if m.top.filter.typing() {
			s = append(s, modeFilter)
		}
	}
	if m.confirm != nil {
		s = append(s, modeConfirm)
		if m.confirm.typing {
			s = append(s, modeReason)
		}
	}
	return s
}

// statusShown is the status message as drawn: none while it is bound to a
// mode that is no longer on the stack.
func (m Model) statusShown() string {
	if m.statusBound && !slices.Contains(m.modes(), m.statusMode) {
		return ""
	}
	return m.status
}
