package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// topKey handles the top view's keys: opening a key, the group view, actions.
func (m Model) topKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.c.keys
	sel := m.top.selected()
	switch {
	case key.Matches(msg, k.Open) && sel != nil:
		m.state = viewDetail
		var cmd tea.Cmd
		m.detail, cmd = m.detail.open(sel.Controller, sel.Key.Key)
		return m, cmd
	case key.Matches(msg, k.Group):
		m.state = viewGroups
		var cmd tea.Cmd
		m.groups, cmd = m.groups.open(&m.top)
		return m, cmd
	case key.Matches(msg, k.Forget, k.Retry) && sel != nil:
		return m.ask(action{requeue: key.Matches(msg, k.Retry), controller: sel.Controller, key: sel.Key.Key, failures: sel.Failures})
	case key.Matches(msg, k.ForgetAll, k.RetryAll):
		return m.ask(m.filteredSet(key.Matches(msg, k.RetryAll)))
	}
	var cmd tea.Cmd
	m.top, cmd = m.top.update(msg)
	return m, cmd
}

// filteredSet is the action on every key the top view's filter selects.
func (m *Model) filteredSet(requeue bool) action {
	t := &m.top
	f := &api.Filter{Q: t.applied, States: t.stateList()}
	var what []string
	if f.Q != "" {
		what = append(what, fmt.Sprintf("matching %q", f.Q))
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
	return action{requeue: requeue, controllers: m.actionControllers(t.controller), filter: f, what: strings.Join(what, ", ") + " of " + scopeName(t.controller)}
}

// actionControllers is the controller named, or every one that accepts forget.
func (m *Model) actionControllers(name string) []string {
	if name != "" {
		return []string{name}
	}
	var out []string
	if m.top.overview != nil {
		for _, c := range m.top.overview.Controllers {
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

// detailKey handles the detail view's keys.
func (m Model) detailKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.c.keys
	switch {
	case key.Matches(msg, k.Back):
		m.state = viewTop
		return m, m.top.refresh()
	case key.Matches(msg, k.Forget, k.Retry):
		if d := m.detail.keyOf(); d != nil {
			return m.ask(action{requeue: key.Matches(msg, k.Retry), controller: d.Controller, key: d.Key.Key, failures: d.Failures})
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.detail, cmd = m.detail.update(msg)
	return m, cmd
}

// groupsKey handles the group view's keys: drilling into a group, bulk actions.
func (m Model) groupsKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.c.keys
	g := m.groups.selected()
	switch {
	case key.Matches(msg, k.Back, k.Group):
		m.state = viewTop
		return m, m.top.refresh()
	case key.Matches(msg, k.Open) && g != nil && g.fingerprint != noError:
		m.state = viewTop
		t := &m.top
		t.applied, t.filterState, t.offset, t.cursor = fingerprintFilter(g.fingerprint), filterApplied, 0, 0
		t.filter.SetValue(t.applied)
		return m, t.refresh()
	case key.Matches(msg, k.Forget, k.Retry, k.ForgetAll, k.RetryAll) && g != nil:
		if g.fingerprint == noError {
			return m, m.setStatus("keys that failed without an error cannot be selected by a filter: act on them one by one", true)
		}
		names := make([]string, len(g.controllers))
		for i, c := range g.controllers {
			names[i] = c.name
		}
		return m.ask(action{
			requeue:     key.Matches(msg, k.Retry, k.RetryAll),
			controllers: names,
			filter:      &api.Filter{Q: fingerprintFilter(g.fingerprint), States: m.groups.query.States},
			what:        fmt.Sprintf("whose last error is %q", g.fingerprint),
		})
	}
	var cmd tea.Cmd
	m.groups, cmd = m.groups.update(msg)
	return m, cmd
}

// ask opens the confirmation for act; a bulk action is counted first.
func (m Model) ask(act action) (tea.Model, tea.Cmd) {
	if act.bulk() && len(act.controllers) == 0 {
		return m, m.setStatus("no controller accepts forget", true)
	}
	m.nextID++
	m.confirm = &confirmation{id: m.nextID, act: act}
	if act.bulk() {
		m.confirm.count = -1
		return m, dryRunCmd(m.c.opts.ctx, m.c.opts.Session, m.nextID, act)
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

// setStatus shows a status message that expires.
func (m *Model) setStatus(s string, isErr bool) tea.Cmd {
	m.statusID++
	m.status, m.statusErr = s, isErr
	return expireStatus(m.statusID)
}
