package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// ask opens the confirmation for act; a bulk action is counted first.
func (m Model) ask(act widget.Action) (tea.Model, tea.Cmd) {
	if act.Bulk() && len(act.Controllers) == 0 {
		return m, m.setStatus("no controller accepts forget", true)
	}
	m.nextID++
	act.User = m.c.Opts.User
	m.top.forecast(&act)
	m.confirm = widget.NewConfirmation(m.nextID, act)
	m.push(modeConfirm)
	if act.Bulk() {
		return m, dryRunCmd(m.c.Conn.Ctx, m.c.Conn.Session, m.nextID, act)
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

// forecast sets what act's dialog says of a next failure, from the
// limiters of the controllers it acts on as the last overview describes
// them: those with a token bucket, and explain.NextFailureWait when it
// acts on one controller ("" for several).
func (t *topModel) forecast(act *widget.Action) {
	on := act.ActedOn()
	act.Buckets = nil
	for _, c := range on {
		if t.bucketed(c) {
			act.Buckets = append(act.Buckets, c)
		}
	}
	act.NextWait = ""
	if t.overview != nil && len(on) == 1 && on[0] != "" {
		act.NextWait = explain.NextFailureWait(t.overview.Controller(on[0]))
	}
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
	m.top.forecast(&c.Act)
	if c.Act.Bulk() {
		return
	}
	if k := m.shownKey(c.Act.Controller, c.Act.Key); k != nil {
		c.Act.Follow(k)
	}
}

// shownKey is the key as the view shown last read it: the detail view's,
// else the top view's row; nil when neither shows it.
func (m *Model) shownKey(controller, key string) *api.Key {
	if m.view() == modeDetail {
		return m.detail.Shows(controller, key)
	}
	return m.top.row(controller, key)
}

// row is the key as the top view's page last read it; nil when the page
// does not hold it.
func (t *topModel) row(controller, key string) *api.Key {
	if p := t.page; p != nil {
		for i := range p.Items {
			if k := &p.Items[i].Key; k.Controller == controller && k.Key == key {
				return k
			}
		}
	}
	return nil
}

// forgetDone shows an action's result and refreshes the view. When some
// controllers answered and others failed, the status says both, as an
// error: what was forgotten cannot be taken back, and what failed is not.
func (m Model) forgetDone(msg forgetDoneMsg) (tea.Model, tea.Cmd) {
	var status tea.Cmd
	switch {
	case msg.err != nil && len(msg.forgotIn) == 0:
		status = m.setStatus(msg.act.Verb()+" failed: "+failureText(msg.err), true)
	default:
		status = m.setStatus(doneText(msg), msg.err != nil)
	}
	return m, tea.Batch(status, m.refreshNow())
}

// doneText says what a forget or retry did: how many keys (in words, "1
// key"), and what happens to their pending retries; then, if some
// controllers failed, which and why.
func doneText(msg forgetDoneMsg) string {
	out := forgotText(msg)
	if msg.err != nil {
		out += "; " + msg.act.Verb() + " failed in " + failureText(msg.err)
	}
	return out
}

// forgotText is doneText's first part: what the controllers that answered did.
func forgotText(msg forgetDoneMsg) string {
	a := msg.act
	scope := a.Controller
	if a.Bulk() {
		names := a.Controllers
		if msg.err != nil {
			names = msg.forgotIn // not the ones that failed
		}
		if msg.count > 0 {
			// A filter over every controller is sent to each; the keys it
			// selected are those of the controllers that had some.
			names = msg.matchedIn
		}
		scope = explain.Plural(len(names), "controller")
		if len(names) == 1 {
			scope = names[0]
		}
	}
	out := fmt.Sprintf("forgot the backoff of %s of %s", explain.Plural(msg.count, "key"), scope)
	switch {
	case msg.count == 0:
		return out + ": nothing matched any more"
	case msg.requeued && a.Bulk() && msg.count > 1:
		return out + "; retrying them spread over " + widget.Short(widget.BulkSpread)
	case msg.requeued:
		return out + "; retrying now"
	case a.Requeue:
		return out + "; the queue is not instrumented, so a pending retry keeps its time"
	}
	return out + "; a pending retry keeps its time (r retries now)"
}

// failureText is an action's error on one line: each failed controller
// with its error ("naive: …; outage: …"), as inspector.ForgetEach names them.
func failureText(err error) string {
	fs, ok := errors.AsType[inspector.ForgetFailures](err)
	if !ok {
		return widget.OneLine(err.Error())
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = widget.OneLine(f.Error())
	}
	return strings.Join(parts, "; ")
}

// statusLines is how many lines the status message takes: wrapped, at most 3.
func (m *Model) statusLines() int {
	if m.statusShown() == "" {
		return 0
	}
	return min(3, len(widget.Wrap(m.statusShown(), m.c.Width)))
}

// fitStatus makes room for the status message: the scrolled views re-clamp.
func (m *Model) fitStatus() {
	m.c.StatusLines = m.statusLines()
	m.detail.Clamp()
	m.help.Clamp()
}

// setStatus shows a status message that expires.
func (m *Model) setStatus(s string, isErr bool) tea.Cmd {
	m.statusID++
	// A status quotes keys and the endpoint's errors: escaped once, here.
	m.status, m.statusErr, m.statusLegend, m.statusBound = explain.Printable(s), isErr, false, false
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
func (t *topModel) keyAction(requeue bool) view.Intent {
	sel := t.selected()
	if sel == nil {
		return nil
	}
	if !requeue && sel.Failures == 0 && (sel.State == api.StateIdle || sel.State == api.StateScheduled) {
		return view.NoteIntent{Text: fmt.Sprintf("%s is %s with 0 failures: nothing to forget (r retries it now)", sel.Key.Key, sel.State)}
	}
	return view.AskIntent{Act: widget.OneKey(requeue, &sel.Key)}
}

// filteredSet is the action on every key the top view's filter selects.
func (t *topModel) filteredSet(requeue bool) widget.Action {
	f := &api.Filter{Q: t.filter.Applied, Error: t.group.pattern, States: t.stateList()}
	var what []string
	if t.group.pattern != "" {
		what = append(what, fmt.Sprintf("whose last error is \"%s\"", t.group.fingerprint))
	}
	if f.Q != "" {
		what = append(what, "matching "+widget.DescribeFilter(f.Q))
	}
	if len(f.States) > 0 {
		what = append(what, view.InStates(f.States))
	}
	if len(what) == 0 {
		what = append(what, "(ALL keys, no filter)")
	}
	return widget.Action{Requeue: requeue, Controllers: t.actionControllers(), Filter: f, What: strings.Join(what, ", ") + " of " + view.ScopeName(t.controller)}
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
