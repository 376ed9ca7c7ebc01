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
		if cmd, act, answered = m.confirm.Update(msg); answered {
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
		m.push(modeDetail)
		m.detail, next = m.detail.Open(in.Controller, in.Key)
	case view.OpenGroupsIntent:
		m.push(modeGroups)
		m.groups, next = m.groups.Open(in)
	case view.OpenIntent:
		md, ok := registered[reflect.TypeOf(in.View)]
		if !ok {
			next = m.setStatus(fmt.Sprintf("no view %T is registered (registerView)", in.View), true)
			break
		}
		m.push(md)
		m.setView(md, in.View)
		next = in.Cmd
	case view.OpenHelpIntent:
		m.push(modeHelp)
		m.help = m.help.Open(in.Keys, helpTitles[m.viewUnder()], m.viewUnder() == modeTop)
		if l, ok := m.viewAt(m.viewUnder()).(view.HelpLead); ok {
			m.help = m.help.WithDiagnosis(l.HelpLead())
		}
	case view.CloseHelpIntent:
		m.pop()
	case view.BackIntent:
		m.pop()
		if m.view() == modeTop {
			next = m.top.Refresh()
		}
	case view.TypingIntent:
		if in {
			m.push(modeFilter)
		} else {
			m.pop()
		}
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
		fromGroups := m.onStack(modeGroups)
		if m.onStack(modeDrill) {
			m.popTo(modeDrill)
		} else {
			m.popTo(modeTop)
			m.push(modeDrill)
		}
		cmd := m.top.ShowGroup(in, fromGroups)
		hint := "showing the keys of one error group: esc goes back to the view before it"
		if fromGroups {
			hint = "showing the keys of one error group: esc goes back to the error groups"
		}
		next = tea.Batch(cmd, m.setHint(hint, modeDrill))
	case view.LeftDrillIntent:
		m.popTo(modeTop)
		next = m.setStatus(in.Text, false)
		if in.ToGroups {
			// Where the user came from, read again: the top view under it
			// is the view from before the drill-down.
			m.push(modeGroups)
			next = tea.Batch(m.groups.Refresh(), next)
		}
	case view.AskIntent:
		var mm tea.Model
		mm, next = m.ask(in.Act)
		m = mm.(Model)
	case view.AnswerIntent:
		m.confirm = nil
		m.pop()
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
