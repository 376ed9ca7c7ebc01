package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// ask opens the confirmation for act; a bulk action is counted first.
func (m Model) ask(act action) (tea.Model, tea.Cmd) {
	if act.bulk() && len(act.controllers) == 0 {
		return m, m.setStatus("no controller accepts forget", true)
	}
	m.nextID++
	act.user = m.c.opts.User
	m.confirm = newConfirmation(m.nextID, act)
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

// keyAction is forget or retry of the key under the cursor; forgetting a
// key with nothing to forget says so instead of asking.
func (t *topModel) keyAction(requeue bool) intent {
	sel := t.selected()
	if sel == nil {
		return nil
	}
	if !requeue && sel.Failures == 0 && (sel.State == api.StateIdle || sel.State == api.StateScheduled) {
		return noteIntent{text: fmt.Sprintf("%s is %s with 0 failures: nothing to forget (r retries it now)", sel.Key.Key, sel.State)}
	}
	return askIntent{action{requeue: requeue, controller: sel.Controller, key: sel.Key.Key, failures: sel.Failures}}
}

// filteredSet is the action on every key the top view's filter selects.
func (t *topModel) filteredSet(requeue bool) action {
	f := &api.Filter{Q: t.filter.applied, States: t.stateList()}
	var what []string
	if f.Q != "" {
		what = append(what, "matching "+describeFilter(f.Q))
	}
	if len(f.States) > 0 {
		names := make([]string, len(f.States))
		for i, s := range f.States {
			names[i] = string(s)
		}
		what = append(what, "in state "+strings.Join(names, " or "))
	}
	if len(what) == 0 {
		what = append(what, "(ALL keys, no filter)")
	}
	return action{requeue: requeue, controllers: t.actionControllers(), filter: f, what: strings.Join(what, ", ") + " of " + scopeName(t.controller)}
}

// actionControllers is the controller shown, or every one that accepts forget.
func (t *topModel) actionControllers() []string {
	if t.controller != "" {
		return []string{t.controller}
	}
	var out []string
	if t.overview != nil {
		for _, c := range t.overview.Controllers {
			if c.Capabilities.CanForget && !c.Capabilities.ReadOnly {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

func scopeName(controller string) string {
	if controller == "" {
		return "every controller"
	}
	return controller
}
