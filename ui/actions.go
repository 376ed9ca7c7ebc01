package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// ask opens the confirmation for act; a bulk action is counted first.
func (m Model) ask(act action) (tea.Model, tea.Cmd) {
	if act.bulk() && len(act.controllers) == 0 {
		return m, m.setStatus("no controller accepts forget", true)
	}
	m.nextID++
	m.confirm = &confirmation{id: m.nextID, act: act}
	if act.bulk() {
		m.confirm.count = -1
		return m, dryRunCmd(m.c.conn.ctx, m.c.conn.session, m.nextID, act)
	}
	return m, nil
}

// forgetDone shows an action's result and refreshes the view.
func (m Model) forgetDone(msg forgetDoneMsg) (tea.Model, tea.Cmd) {
	var status tea.Cmd
	switch {
	case msg.err != nil:
		status = m.setStatus(msg.act.verb()+" failed: "+oneLine(msg.err.Error()), true)
	case msg.act.bulk() && len(msg.act.controllers) > 1:
		status = m.setStatus(fmt.Sprintf("%s: %d keys over %d controllers", msg.act.verb(), msg.count, len(msg.act.controllers)), false)
	default:
		status = m.setStatus(msg.msg, false)
	}
	return m, tea.Batch(status, m.refreshNow())
}

// statusLines is how many lines the status message takes: wrapped, at most 3.
func (m *Model) statusLines() int {
	if m.status == "" {
		return 0
	}
	return min(3, len(wrap(m.status, m.c.width)))
}

// fitStatus makes room for the status message: the scrolled views re-clamp.
func (m *Model) fitStatus() {
	m.c.statusLines = m.statusLines()
	m.detail.clamp()
	m.help.clamp()
}

// setStatus shows a status message that expires.
func (m *Model) setStatus(s string, isErr bool) tea.Cmd {
	m.statusID++
	m.status, m.statusErr = s, isErr
	m.fitStatus()
	return expireStatus(m.statusID)
}
