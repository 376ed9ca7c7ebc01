package view

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// What the table selects, as the user changes it: the filter typed, the
// states toggled, the controller cycled.

// filterKey handles a key while the filter line is typed: the filter is
// applied as it is typed; enter or esc ends the typing.
func (t Top) filterKey(msg tea.KeyPressMsg) (Top, tea.Cmd, Intent) {
	f, cmd, changed, done := t.Filter.Update(msg)
	t.Filter = f
	var in Intent
	if done {
		in = TypingIntent(false)
	}
	if changed {
		t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
		return t, tea.Batch(cmd, t.Refresh()), in
	}
	return t, cmd, in
}

// filterInput passes a message that is not a key (the cursor's blink) to
// the filter line being typed.
func (t Top) filterInput(msg tea.Msg) (Top, tea.Cmd) {
	var cmd tea.Cmd
	t.Filter.Input, cmd = t.Filter.Input.Update(msg)
	return t, cmd
}

// toggleState shows or hides state i, and says what the table shows now and
// what pressing the key again does.
func (t *Top) toggleState(i int) Intent {
	toggles := t.C.ToggleStates()
	if i < 0 || i >= len(toggles) {
		return nil
	}
	st := toggles[i]
	t.states[st] = !t.states[st]
	t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
	sel := t.StateList()
	if len(sel) == 0 {
		return NoteIntent{Text: fmt.Sprintf("showing every state again (%d shows only %s)", i+1, st)}
	}
	names := make([]string, len(sel))
	for j, s := range sel {
		names[j] = string(s)
	}
	again := fmt.Sprintf("%d again hides it", i+1)
	switch {
	case !t.states[st]:
		again = fmt.Sprintf("%d again adds it back", i+1)
	case len(sel) == 1:
		// The only state on: off again is none on, which shows them all.
		again = fmt.Sprintf("%d again shows every state", i+1)
	}
	return NoteIntent{Text: fmt.Sprintf("showing only %s keys; %s", strings.Join(names, ", "), again)}
}

// nextController cycles through "all" and each controller.
func (t *Top) nextController(back bool) string {
	names := []string{""}
	if t.Overview != nil {
		for _, c := range t.Overview.Controllers {
			names = append(names, c.Name)
		}
	}
	i := slices.Index(names, t.Controller)
	if back {
		i += len(names) - 1
	} else {
		i++
	}
	return names[i%len(names)]
}
