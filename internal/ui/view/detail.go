package view

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Detail explains one key: the diagnosis in words, the timeline of its
// attempts, and the object behind it.
type Detail struct {
	Asking
	C *Common

	Controller, Key string
	Data            *describe.Description
	// input is what Explain reads, copied before data was escaped: its
	// quoting (%q) escapes the error itself, and escaping it first would
	// show every escape twice (\\x1b). Its answer is escaped as drawn.
	input     explain.Input
	err       error
	FetchedAt time.Time
	Scroll    int
	Inflight  bool
	lastSent  time.Time
	// chain is the object's chain (escaped), for its blocker line
	// (detailchain.go); chainAt when it was last asked for.
	chain       *objwhy.Chain
	chainAt     time.Time
	chainAsking bool
}

// Open starts showing a key.
func (d Detail) Open(controller, key string) (Detail, tea.Cmd) {
	d = Detail{C: d.C, Controller: controller, Key: key}
	return d, d.Refresh()
}

// Refresh (re)reads the key.
func (d *Detail) Refresh() tea.Cmd {
	d.Inflight = true
	d.lastSent = d.C.Now()
	cn := &d.C.Conn
	return tea.Batch(d.C.Stamp(DetailCmd(cn.Ctx, cn.Session, cn.Objects, d.C.Opts.Clock, d.Controller, d.Key)), d.WalkChain())
}

// Received takes a read of the key in; one of another key is ignored.
func (d Detail) Received(msg DetailFetchedMsg) Detail {
	if msg.Controller != d.Controller || msg.Key != d.Key {
		return d
	}
	d.Inflight = false
	d.err = msg.Err
	if msg.Data != nil {
		// Everything the view draws is escaped as it arrives, but the
		// key's name and controller: shows() matches them to the table's.
		var ctl, name string
		if msg.Data.Key != nil {
			ctl, name = msg.Data.Key.Controller, msg.Data.Key.Key.Key
		}
		d.input = explainInput(msg.Data)
		widget.PrintableFields(msg.Data)
		if msg.Data.Key != nil {
			msg.Data.Key.Controller, msg.Data.Key.Key.Key = ctl, name
		}
		d.Data, d.FetchedAt = msg.Data, msg.FetchedAt
	}
	d.Clamp()
	return d
}

// update handles the detail view's keys, and returns what the root must do.
// The scroll offset is clamped here, so that every key moves the view.
func (d Detail) update(msg tea.KeyPressMsg) (Detail, tea.Cmd, Intent) {
	k := d.C.Keys.detail()
	switch {
	case key.Matches(msg, k.Leave):
		return d, nil, BackIntent{}
	case key.Matches(msg, k.RefusedForget, k.RefusedRetry):
		name := ""
		if kd := d.keyOf(); kd != nil {
			name = kd.Key.Key
		}
		return d, nil, d.C.RefusedIntent(key.Matches(msg, k.RefusedForget), key.Matches(msg, k.RefusedRetry), name)
	case key.Matches(msg, k.Forget, k.Retry):
		if kd := d.keyOf(); kd != nil {
			return d, nil, AskIntent{widget.OneKey(key.Matches(msg, k.Retry), &kd.Key)}
		}
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &d.Scroll, max(1, d.Room()-1), len(d.Body()))
	}
	d.Clamp()
	return d, nil, nil
}

// HeadLines is how many lines the title and status take above the body.
const HeadLines = 3

// Room is how many lines the body has on screen.
func (d *Detail) Room() int { return max(1, d.C.bodyHeight()-HeadLines) }

// Clamp keeps the scroll offset within the body: the last screenful ends
// at the body's last line (the "more lines" note takes the bottom line).
func (d *Detail) Clamp() {
	d.Scroll = widget.ClampText(d.Scroll, len(d.Body()), d.Room())
}

// setSize re-clamps the scroll to the terminal's new size.
func (d Detail) setSize() Detail {
	d.Clamp()
	return d
}

// Body is the scrolled part of the view: the diagnosis, the timeline and
// the object.
func (d *Detail) Body() []string {
	if d.Data == nil {
		return nil
	}
	now := d.C.ServerNow(d.Data.Key.ServerTime, d.FetchedAt)
	body := d.diagnosis(now)
	body = append(body, "")
	if v := d.verdict(now); v != nil {
		body = append(append(append(body, v...), d.blockerLines()...), "")
	}
	body = append(body, widget.Timeline(&d.C.Styles, &d.Data.Key.Key, d.C.Width)...)
	body = append(body, "")
	return append(body, d.object(now)...)
}

// View renders the detail view in height-1 lines.
func (d *Detail) View() string {
	s := &d.C.Styles
	w, h := d.C.Width, d.C.Height-1
	title := s.Title.Render("backoff") + s.Dim.Render(" › ") + text.Cell(d.Controller, 0) + s.Dim.Render(" › ") + s.Bold.Render(text.Cell(d.Key, 0))
	var lines []string
	if d.Data == nil {
		lines = append(lines, widget.Fit(title, w))
		switch {
		case d.err != nil:
			lines = append(lines, s.Bad.Render(widget.Fit("✗ "+widget.CauseText(d.err), w)))
		default:
			lines = append(lines, s.Dim.Render("loading…"))
		}
		return strings.Join(widget.Pad(lines, h), "\n")
	}
	k := &d.Data.Key.Key
	now := d.C.ServerNow(d.Data.Key.ServerTime, d.FetchedAt)
	status := s.StateStyle(k.State).Render(string(k.State)) + " · " + FailuresText(k)
	if k.State == api.StateBackoff || k.State == api.StateScheduled {
		if next := text.Countdown(k.NextRetryAt, now); d.C.LogStale() {
			status += " · next retry " + afterLogEnd(next) + " after log end" // not a live countdown
		} else {
			status += " · next retry " + next
		}
	}
	if d.Data.Key.Pod != "" {
		status += s.Dim.Render(" · " + d.Data.Key.Pod)
	}
	if d.err != nil {
		status += s.Bad.Render(" · ✗ " + widget.CauseText(d.err))
	}
	if d.C.Paused {
		status += s.Warn.Render(" · ⏸ PAUSED")
	}
	head := []string{widget.Fit(title, w), widget.Fit(status, w), ""}
	lines = append(head, widget.ScrolledText(d.Body(), d.Scroll, d.Room(), s)...)
	for i := range lines {
		lines[i] = widget.Fit(lines[i], w)
	}
	return strings.Join(widget.Pad(lines, h), "\n")
}

// proseIndent is the hanging indent of a wrapped paragraph, so that where
// one sentence of the explanation ends and the next begins still shows.
const proseIndent = 2

// diagnosis is the explanation, in words: each paragraph wrapped to the
// width with a hanging indent, never cut.
func (d *Detail) diagnosis(now time.Time) []string {
	s := &d.C.Styles
	dg := d.Explain(now)
	w := d.C.Width
	var out []string
	for _, l := range text.WrapIndent(dg.Summary, w, proseIndent) {
		out = append(out, s.Bold.Render(l))
	}
	for _, det := range dg.Details {
		out = append(out, text.WrapIndent(det, w, proseIndent)...)
	}
	for _, f := range dg.Findings {
		for _, l := range text.WrapIndent("! "+d.Finding(f), w, proseIndent) {
			out = append(out, s.Warn.Render(l))
		}
	}
	return out
}

// Finding is f as the view says it: where the view can retry the key, its
// own key r in place of the command a terminal would run.
func (d *Detail) Finding(f explain.Finding) string {
	if f.User != "" {
		return f.User // the reader runs the controller: what to do now
	}
	if f.Command != nil && f.Command.Target {
		// kick, the log's retry: rendered to reach the log read (its
		// TARGET or file), not the word TARGET.
		return text.Printable(f.For(d.C.Opts.LogAt).Message)
	}
	if !d.C.Keys.Retry.Enabled() || !f.Command.IsRetryNow() {
		return f.Message
	}
	return text.Printable(f.Saying("r"))
}

// Explain is the diagnosis at the server's time now. Explain is a pure
// function of the key and the time, so it runs again at each render: the
// narrative's "(in 4.4s)" then counts down with the header's "next retry",
// instead of standing at what it was when the key was read.
func (d *Detail) Explain(now time.Time) explain.Diagnosis {
	if now.IsZero() {
		return d.Data.Diagnosis
	}
	in := d.input
	in.Now = now
	dg := explain.Explain(in)
	dg.Summary = text.Printable(dg.Summary)
	for i, det := range dg.Details {
		dg.Details[i] = text.Printable(det)
	}
	for i := range dg.Findings {
		dg.Findings[i].Message = text.Printable(dg.Findings[i].Message)
		dg.Findings[i].User = text.Printable(dg.Findings[i].User)
	}
	return dg
}

// explainInput is a deep copy of what Explain reads of dd, so that
// escaping dd leaves it as read.
func explainInput(dd *describe.Description) explain.Input {
	in := explain.Input{Controller: dd.Controller, Source: dd.Source, Object: dd.Object, Fleet: dd.Fleet}
	if dd.Key != nil {
		in.Key = dd.Key.Key
	}
	out, _ := widget.DeepCopy(in)
	return out
}

// keyOf is the key the detail view shows, for actions.
func (d *Detail) keyOf() *inspector.PodKeyDetail {
	if d.Data == nil {
		return nil
	}
	return d.Data.Key
}

// FailuresText is a key's failures in words, as the wire counts them
// (Failures, the limiter's consecutive count). A failed key is never
// rate-limited again, so its count says little: the words say why it stops.
func FailuresText(k *api.Key) string {
	n := text.Plural(k.Failures, "failure")
	if k.State != api.StateFailed {
		return n
	}
	why := "terminal error, not retried"
	if g := explain.GaveUpText(*k); g != "" {
		why = g + ", not retried"
	}
	if k.Failures == 0 {
		return why
	}
	return why + " · " + n + " counted"
}

// The view interface (view.go), over the typed methods above.

// A key's detail.

// OnKey handles a key pressed while the view is on top (View).
func (d Detail) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return d.update(msg) }

// Render draws the view's body (View).
func (d Detail) Render() string { return d.View() }

// HintKeys is the view's key map: its hints, and what ? explains (View).
func (d Detail) HintKeys() help.KeyMap { return d.C.Keys.detail() }

// Stale reports whether the view's next read is due (View).
func (d Detail) Stale() bool { return d.C.Conn.Session != nil && d.due() }

// Reload reads what the view shows again (View).
func (d Detail) Reload() (View, tea.Cmd) { cmd := d.Refresh(); return d, cmd }

// ReloadNow is ctrl+r's read (View).
func (d Detail) ReloadNow() (View, tea.Cmd) { return d.Reload() }

// Resize lays the view out for the terminal's size (View).
func (d Detail) Resize() (View, tea.Cmd) { return d.setSize(), nil }

// Receive implements Receiver: a read of the key, and the walk of the
// chain behind it.
func (d Detail) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	switch m := msg.(type) {
	case DetailFetchedMsg:
		return d.Received(m), nil, nil, true
	case DetailChainMsg:
		return d.ChainReceived(m), nil, nil, true
	case DroppedMsg:
		if r, ok := m.Msg.(DetailFetchedMsg); ok {
			if r.Controller == d.Controller && r.Key == d.Key {
				d.Inflight = false
			}
			return d, nil, nil, true
		}
	}
	return d, nil, nil, false
}

// due reports whether the view's next read is due (Common.Due).
func (d *Detail) due() bool { return d.C.Due(d.Inflight, d.lastSent) }
