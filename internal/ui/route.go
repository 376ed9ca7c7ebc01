package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// key routes a key press to the mode on top of the stack, which handles it
// with its own key map, and acts on the intent it returns. ctrl+c is the
// root's: it quits from anywhere, a filter or the dialog included; so are
// the keys the views share (quit, help, pause, refresh: layer.go's shared).
func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.c.keys.Interrupt) {
		return m, tea.Quit
	}
	var cmd tea.Cmd
	var in intent
	if key.Matches(msg, m.c.keys.StillPause) && slices.Contains([]mode{modeTop, modeDrill, modeDetail, modeGroups}, m.topMode()) {
		// Before the views: p and ctrl+r are theirs, disabled over a snapshot.
		return m.act(noteIntent{text: m.c.stillText()}, nil)
	}
	switch md := m.topMode(); md {
	case modeConfirm:
		cmd, in = m.confirm.update(msg)
	case modeFilter: // the filter line of the view under it
		var v view
		v, cmd, in = m.viewAt(m.view()).(filterView).onFilterKey(msg)
		m.setView(m.view(), v)
	default:
		v := m.viewAt(md)
		var ok bool
		if cmd, in, ok = m.shared(v, msg); !ok {
			v, cmd, in = v.onKey(msg)
			m.setView(md, v)
		}
	}
	return m.act(in, cmd)
}

// act does what a view asked for, after its own command cmd: opening a
// view or a mode pushes it, leaving one pops it.
func (m Model) act(in intent, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	var next tea.Cmd
	switch in := in.(type) {
	case nil:
	case openKeyIntent:
		m.push(modeDetail)
		m.detail, next = m.detail.open(in.controller, in.key)
	case openGroupsIntent:
		m.push(modeGroups)
		m.groups, next = m.groups.open(in)
	case openHelpIntent:
		m.push(modeHelp)
		m.help = m.help.open(in.keys, m.viewUnder())
	case closeHelpIntent:
		m.pop()
	case backIntent:
		m.pop()
		if m.view() == modeTop {
			next = m.top.refresh()
		}
	case typingIntent:
		if in {
			m.push(modeFilter)
		} else {
			m.pop()
		}
	case pauseIntent:
		m.c.paused = !m.c.paused
		if m.c.paused {
			m.c.pauses++ // what was sent before is dropped (pause.go)
			next = m.setHint("paused: p resumes, ctrl+r refreshes once", modePaused)
		} else {
			next = tea.Batch(m.refreshNow(), m.setStatus("resumed", false))
		}
	case refreshIntent:
		next = m.refreshNow()
	case showGroupIntent:
		// Back to the table, in a drill-down: drilling again from one
		// keeps it, so esc goes back to the view before any group.
		fromGroups := m.onStack(modeGroups)
		if m.onStack(modeDrill) {
			m.popTo(modeDrill)
		} else {
			m.popTo(modeTop)
			m.push(modeDrill)
		}
		cmd := m.top.showGroup(in, fromGroups)
		hint := "showing the keys of one error group: esc goes back to the view before it"
		if fromGroups {
			hint = "showing the keys of one error group: esc goes back to the error groups"
		}
		next = tea.Batch(cmd, m.setHint(hint, modeDrill))
	case leftDrillIntent:
		m.popTo(modeTop)
		next = m.setStatus(in.text, false)
		if in.toGroups {
			// Where the user came from, read again: the top view under it
			// is the view from before the drill-down.
			m.push(modeGroups)
			next = tea.Batch(m.groups.refresh(), next)
		}
	case askIntent:
		var mm tea.Model
		mm, next = m.ask(in.act)
		m = mm.(Model)
	case answerIntent:
		m.confirm = nil
		m.pop()
		if in.act == nil {
			next = m.setStatus("cancelled: nothing was changed", false)
			break
		}
		next = tea.Batch(forgetCmd(m.c.conn.ctx, m.c.conn.session, *in.act), m.setStatus(in.act.verb()+"…", false))
	case openAnswerKeyIntent:
		var mm tea.Model
		mm, next = m.openKey(in)
		m = mm.(Model)
	case openChainIntent:
		m.push(modeChain)
		m.chain, next = m.chain.show(in)
	case noteIntent:
		next = m.setStatus(in.text, in.isErr)
	}
	return m, tea.Batch(cmd, next)
}
