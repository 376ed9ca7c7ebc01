package ui

import (
	"fmt"
	"reflect"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// key routes a key press to the mode on top of the stack, which handles it
// with its own key map, and acts on the intent it returns. ctrl+c is the
// root's: it quits from anywhere, a filter or the dialog included; so are
// the keys the views share (quit, help, pause, refresh: layer.go's shared).
func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.c.Keys.Interrupt) {
		return m, tea.Quit
	}
	var cmd tea.Cmd
	var in view.Intent
	if key.Matches(msg, m.c.Keys.StillPause) && slices.Contains([]mode{modeTop, modeDrill, modeDetail, modeGroups}, m.topMode()) {
		// Before the views: p and ctrl+r are theirs, disabled over a snapshot.
		return m.act(view.NoteIntent{Text: m.c.StillText()}, nil)
	}
	switch md := m.topMode(); md {
	case modeConfirm:
		var act *widget.Action
		var answered bool
		if cmd, act, answered = m.dialog().Update(msg); answered {
			in = view.AnswerIntent{Act: act}
		}
	case modeFilter: // the filter line of the view under it
		var v view.View
		v, cmd, in = m.viewAt(m.view()).(view.FilterView).OnFilterKey(msg)
		m.setView(m.view(), v)
	default:
		v := m.viewAt(md)
		var ok bool
		if cmd, in, ok = m.shared(v, msg); !ok {
			v, cmd, in = v.OnKey(msg)
			m.setView(md, v)
		}
	}
	return m.act(in, cmd)
}

// act does what a view asked for, after its own command cmd: opening a
// view or a mode pushes it, leaving one pops it.
func (m Model) act(in view.Intent, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	var next tea.Cmd
	switch in := in.(type) {
	case nil:
	case view.OpenKeyIntent:
		var d view.Detail
		d, next = view.Detail{C: m.c}.Open(in.Controller, in.Key)
		m.pushView(modeDetail, d)
	case view.OpenGroupsIntent:
		var g view.Groups
		g, next = view.Groups{C: m.c}.Open(in)
		m.pushView(modeGroups, g)
	case view.OpenIntent:
		md, ok := registered[reflect.TypeOf(in.View)]
		if !ok {
			next = m.setStatus(fmt.Sprintf("no view %T is registered (registerView)", in.View), true)
			break
		}
		m.pushView(md, in.View)
		next = in.Cmd
	case view.OpenHelpIntent:
		under := m.viewUnder()
		h, _ := view.NewHelp(m.c).Resize() // fitted to the terminal, as every view is
		h = h.(view.Help).Open(in.Keys, helpTitles[under], under == modeTop)
		if l, ok := m.viewAt(under).(view.HelpLead); ok {
			h = h.(view.Help).WithDiagnosis(l.HelpLead())
		}
		m.pushView(modeHelp, h)
	case view.CloseHelpIntent:
		m.pop()
	case view.BackIntent:
		m.pop()
		if m.view() == modeTop {
			next = m.withTable((*view.Top).Refresh)
		}
	case view.TypingIntent:
		// The filter line is the view's state (view.FilterView.Typing):
		// nothing to push or pop.
	case view.PauseIntent:
		m.c.Paused = !m.c.Paused
		if m.c.Paused {
			m.c.Pauses++ // what was sent before is dropped (pause.go)
			next = m.setHint("paused: p resumes, ctrl+r refreshes once", modePaused)
		} else {
			next = tea.Batch(m.refreshNow(), m.setStatus("resumed", false))
		}
	case view.RefreshIntent:
		next = m.refreshNow()
	case view.ShowGroupIntent:
		// Back to the table, in a drill-down: drilling again from one
		// keeps it, so esc goes back to the view before any group.
		// The drill-down is the table's state; the group view it came
		// from goes with it, to go back to as it is (LeftDrillIntent).
		from := m.viewAt(modeGroups)
		fromGroups := from != nil
		m.popTo(modeTop)
		cmd := m.withTable(func(t *view.Top) tea.Cmd { return t.ShowGroup(in, from) })
		hint := "showing the keys of one error group: esc goes back to the view before it"
		if fromGroups {
			hint = "showing the keys of one error group: esc goes back to the error groups"
		}
		next = tea.Batch(cmd, m.setHint(hint, modeDrill))
	case view.LeftDrillIntent:
		m.popTo(modeTop)
		next = m.setStatus(in.Text, false)
		if in.Back != nil {
			// Where the user came from, read again: the top view under it
			// is the view from before the drill-down.
			v, read := in.Back.Reload()
			m.pushView(registered[reflect.TypeOf(v)], v)
			next = tea.Batch(read, next)
		}
	case view.AskIntent:
		var mm tea.Model
		mm, next = m.ask(in.Act)
		m = mm.(Model)
	case view.AnswerIntent:
		m.closeDialog()
		if in.Act == nil {
			next = m.setStatus("cancelled: nothing was changed", false)
			break
		}
		next = tea.Batch(forgetCmd(m.c.Conn.Ctx, m.c.Conn.Session, *in.Act), m.setStatus(in.Act.Verb()+"…", false))
	case view.OpenAnswerKeyIntent:
		var mm tea.Model
		mm, next = m.openKey(in)
		m = mm.(Model)
	case view.NoteIntent:
		next = m.setStatus(in.Text, in.IsErr)
	}
	return m, tea.Batch(cmd, next)
}
