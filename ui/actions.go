package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// dialog is the forget dialog open over the view that asked; nil when none is.
func (m *Model) dialog() *widget.Confirmation {
	for _, l := range slices.Backward(m.stack) {
		if a, ok := l.v.(view.Asker); ok && a.Dialog() != nil {
			return a.Dialog()
		}
	}
	return nil
}

// closeDialog drops the dialog from the view that holds it, answered.
func (m *Model) closeDialog() {
	for _, l := range slices.Backward(m.stack) {
		if a, ok := l.v.(view.Asker); ok && a.Dialog() != nil {
			m.setView(l.md, a.WithDialog(nil))
			return
		}
	}
}

// ask opens the confirmation for act; a bulk action is counted first.
func (m Model) ask(act widget.Action) (tea.Model, tea.Cmd) {
	if act.Bulk() && len(act.Controllers) == 0 {
		return m, m.setStatus("no controller accepts forget", true)
	}
	if m.statusOutcome {
		// The last dialog's answer, under this one, would read as its own.
		m.status, m.statusOutcome = "", false
		m.fitStatus()
	}
	m.nextID++
	act.User = m.c.Opts.User
	m.forecast(&act)
	// The dialog is the asking view's: it is drawn over it, and goes with it.
	md := m.view()
	if a, ok := m.viewAt(md).(view.Asker); ok {
		m.setView(md, a.WithDialog(widget.NewConfirmation(m.nextID, act)))
	}
	if act.Bulk() {
		return m, dryRunCmd(m.c.Conn.Ctx, m.c.Conn.Session, m.nextID, act)
	}
	return m, nil
}

// followKey keeps the numbers of an open one-key dialog those of the last
// read: the view under it refreshes while it is open, and a failure count
// from when it opened would disagree with the header beside it.
func (m *Model) followKey() {
	c := m.dialog()
	if c == nil {
		return
	}
	// The bucket's debt moves while the dialog is open: so does its forecast.
	m.forecast(&c.Act)
	if c.Act.Bulk() {
		return
	}
	// The key as the view shown (the asking one) last read it.
	if s, ok := m.viewAt(m.view()).(view.KeyShower); ok {
		if k := s.Shows(c.Act.Controller, c.Act.Key); k != nil {
			c.Act.Follow(k)
		}
	}
}

// forecast has a dialog say what act leaves behind: from the shown view's
// own read of the key's controller where it has one (view.KeyForecaster:
// the detail, so that it and the dialog over it say one number), else from
// the topmost view that forecasts (view.Forecaster: the table); nothing
// when no view open does (`top --for`'s detail), and act then says nothing
// of a next failure.
func (m *Model) forecast(act *widget.Action) {
	if f, ok := m.viewAt(m.view()).(view.KeyForecaster); ok && f.Forecast(act) {
		return
	}
	if i := m.topmost(func(v view.View) bool { _, ok := v.(view.Forecaster); return ok }); i >= 0 {
		m.stack[i].v.(view.Forecaster).ForecastAct(act)
	}
}

// forgetDone shows an action's result and refreshes the view. When some
// controllers answered and others failed, the status says both, as an
// error: what was forgotten cannot be taken back, and what failed is not.
func (m Model) forgetDone(msg forgetDoneMsg) (tea.Model, tea.Cmd) {
	var status tea.Cmd
	switch {
	case msg.err != nil && len(msg.forgotIn) == 0:
		status = m.setOutcome(msg.act.Verb()+" failed: "+failureText(msg.err), true)
	default:
		status = m.setOutcome(doneText(msg), msg.err != nil)
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
		scope = text.Plural(len(names), "controller")
		if len(names) == 1 {
			scope = names[0]
		}
	}
	out := fmt.Sprintf("forgot the backoff of %s of %s", text.Plural(msg.count, "key"), scope)
	switch {
	case msg.count == 0:
		return out + ": nothing matched any more"
	case msg.requeued && a.Bulk() && msg.count > 1:
		return out + "; retrying them spread over " + text.FormatDuration(widget.BulkSpread)
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
		return text.OneLine(err.Error(), 0)
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = text.OneLine(f.Error(), 0)
	}
	return strings.Join(parts, "; ")
}

// statusLines is how many lines the status message takes: wrapped, at most 3.
func (m *Model) statusLines() int {
	if m.statusShown() == "" {
		return 0
	}
	return min(3, len(text.Wrap(m.statusShown(), m.c.Width)))
}

// fitStatus makes room for the status message: the scrolled views re-clamp.
func (m *Model) fitStatus() {
	m.c.StatusLines = m.statusLines()
	// The scrolled views open keep their place inside the room left.
	for i, l := range m.stack {
		if c, ok := l.v.(view.Clamper); ok {
			m.stack = slices.Clone(m.stack) // the root is a value: an older copy keeps its own
			m.stack[i].v = c.Clamped()
		}
	}
}

// setStatus shows a status message that expires.
func (m *Model) setStatus(s string, isErr bool) tea.Cmd {
	m.statusID++
	// A status quotes keys and the endpoint's errors: escaped once, here.
	m.status, m.statusErr, m.statusLegend, m.statusBound, m.statusOutcome = text.Printable(s), isErr, false, false, false
	m.fitStatus()
	return expireStatus(m.statusID)
}

// setOutcome shows what a dialog's answer did (setStatus), until it
// expires or the next dialog opens (ask).
func (m *Model) setOutcome(s string, isErr bool) tea.Cmd {
	cmd := m.setStatus(s, isErr)
	m.statusOutcome = true
	return cmd
}

// setHint shows a status message that says what a key does in md: it is
// drawn only while md is on the stack of modes (and expires as any).
func (m *Model) setHint(s string, md mode) tea.Cmd {
	cmd := m.setStatus(s, false)
	m.statusBound, m.statusMode = true, md
	m.fitStatus() // bound, it takes no room where md is not shown
	return cmd
}
