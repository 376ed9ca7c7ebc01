package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// ask opens the confirmation for act; a bulk action is counted first.
func (m Model) ask(act action) (tea.Model, tea.Cmd) {
	if act.bulk() && len(act.controllers) == 0 {
		return m, m.setStatus("no controller accepts forget", true)
	}
	m.nextID++
	act.user = m.c.opts.User
	act.bucket = slices.ContainsFunc(append([]string{act.controller}, act.controllers...), m.top.bucketed)
	act.nextWait = m.top.nextWait(act)
	m.confirm = newConfirmation(m.nextID, act)
	if act.bulk() {
		m.confirm.count = -1
		return m, dryRunCmd(m.c.conn.ctx, m.c.conn.session, m.nextID, act)
	}
	return m, nil
}

// bucketed reports whether controller's limiter has a token bucket, as the
// last overview describes it.
func (t *topModel) bucketed(controller string) bool {
	if t.overview == nil || controller == "" {
		return false
	}
	c := t.overview.Controller(controller)
	return c != nil && slices.ContainsFunc(c.Limiter.Components, func(lc api.LimiterComponent) bool { return lc.Name == api.SourceBucket })
}

// nextWait is explain.NextFailureWait for the one controller act is on,
// as the last overview describes it; "" for several.
func (t *topModel) nextWait(act action) string {
	name := act.controller
	if act.bulk() {
		if len(act.controllers) != 1 {
			return ""
		}
		name = act.controllers[0]
	}
	if t.overview == nil || name == "" {
		return ""
	}
	return explain.NextFailureWait(t.overview.Controller(name))
}

// followKey keeps the numbers of an open one-key dialog those of the last
// read: the view under it refreshes while it is open, and a failure count
// from when it opened would disagree with the header beside it.
func (m *Model) followKey() {
	c := m.confirm
	if c == nil {
		return
	}
	// The bucket's debt moves while the dialog is open: so does its forecast.
	c.act.nextWait = m.top.nextWait(c.act)
	if c.act.bulk() {
		return
	}
	if k := m.shownKey(c.act.controller, c.act.key); k != nil {
		c.act.failures, c.act.delaySource, c.act.state = k.Failures, k.DelaySource, k.State
	}
}

// shownKey is the key as the view shown last read it: the detail view's,
// else the top view's row; nil when neither shows it.
func (m *Model) shownKey(controller, key string) *api.Key {
	if d := m.detail.data; m.state == viewDetail && d != nil {
		if k := &d.Key.Key; k.Controller == controller && k.Key == key {
			return k
		}
		return nil
	}
	if p := m.top.page; p != nil {
		for i := range p.Items {
			if k := &p.Items[i].Key; k.Controller == controller && k.Key == key {
				return k
			}
		}
	}
	return nil
}

// forgetDone shows an action's result and refreshes the view.
func (m Model) forgetDone(msg forgetDoneMsg) (tea.Model, tea.Cmd) {
	var status tea.Cmd
	switch {
	case msg.err != nil:
		status = m.setStatus(msg.act.verb()+" failed: "+oneLine(msg.err.Error()), true)
	default:
		status = m.setStatus(doneText(msg), false)
	}
	return m, tea.Batch(status, m.refreshNow())
}

// doneText says what a forget or retry did: how many keys (in words, "1
// key"), and what happens to their pending retries.
func doneText(msg forgetDoneMsg) string {
	a := msg.act
	scope := a.controller
	if a.bulk() {
		scope = explain.Plural(len(a.controllers), "controller")
		if len(a.controllers) == 1 {
			scope = a.controllers[0]
		}
	}
	out := fmt.Sprintf("forgot the backoff of %s of %s", explain.Plural(msg.count, "key"), scope)
	switch {
	case msg.count == 0:
		return out + ": nothing matched any more"
	case msg.requeued && a.bulk() && msg.count > 1:
		return out + "; retrying them spread over " + short(bulkSpread)
	case msg.requeued:
		return out + "; retrying now"
	case a.requeue:
		return out + "; the queue is not instrumented, so a pending retry keeps its time"
	}
	return out + "; a pending retry keeps its time (r retries now)"
}

// statusLines is how many lines the status message takes: wrapped, at most 3.
func (m *Model) statusLines() int {
	if m.statusShown() == "" {
		return 0
	}
	return min(3, len(wrap(m.statusShown(), m.c.width)))
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
	m.status, m.statusErr, m.statusLegend, m.statusBound = s, isErr, false, false
	m.fitStatus()
	return expireStatus(m.statusID)
}

// setHint shows a status message that says what a key does in md: it is
// drawn only while md is on the stack of modes (and expires as any).
func (m *Model) setHint(s string, md mode) tea.Cmd {
	cmd := m.setStatus(s, false)
	m.statusBound, m.statusMode = true, md
	return cmd
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
	return askIntent{action{requeue: requeue, controller: sel.Controller, key: sel.Key.Key, failures: sel.Failures, delaySource: sel.DelaySource, state: sel.State}}
}

// filteredSet is the action on every key the top view's filter selects.
func (t *topModel) filteredSet(requeue bool) action {
	f := &api.Filter{Q: t.filter.applied, Error: t.group.pattern, States: t.stateList()}
	var what []string
	if t.group.pattern != "" {
		what = append(what, fmt.Sprintf("whose last error is \"%s\"", t.group.fingerprint))
	}
	if f.Q != "" {
		what = append(what, "matching "+describeFilter(f.Q))
	}
	if len(f.States) > 0 {
		what = append(what, inStates(f.States))
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
			if c.Capabilities.Forgets() {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// inStates names states for messages: "in state backoff or failed".
func inStates(states []api.State) string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	return "in state " + strings.Join(names, " or ")
}

func scopeName(controller string) string {
	if controller == "" {
		return "every controller"
	}
	return controller
}
