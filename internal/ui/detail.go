package ui

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// detailModel explains one key: the diagnosis in words, the timeline of its
// attempts, and the object behind it.
type detailModel struct {
	c *common

	controller, key string
	data            *inspector.Description
	// input is what Explain reads, copied before data was escaped: its
	// quoting (%q) escapes the error itself, and escaping it first would
	// show every escape twice (\\x1b). Its answer is escaped as drawn.
	input     explain.Input
	err       error
	fetchedAt time.Time
	scroll    int
	inflight  bool
	lastSent  time.Time
	// chain is the object's chain (escaped), for its blocker line
	// (detailchain.go); chainAt when it was last asked for.
	chain       *objwhy.Chain
	chainAt     time.Time
	chainAsking bool
}

// open starts showing a key.
func (d detailModel) open(controller, key string) (detailModel, tea.Cmd) {
	d = detailModel{c: d.c, controller: controller, key: key}
	return d, d.refresh()
}

// refresh (re)reads the key.
func (d *detailModel) refresh() tea.Cmd {
	d.inflight = true
	d.lastSent = d.c.now()
	cn := &d.c.conn
	return tea.Batch(d.c.stamp(detailCmd(cn.ctx, cn.session, cn.objects, d.c.opts.Clock, d.controller, d.key)), d.walkChain())
}

func (d detailModel) received(msg detailFetchedMsg) detailModel {
	if msg.controller != d.controller || msg.key != d.key {
		return d
	}
	d.inflight = false
	d.err = msg.err
	if msg.data != nil {
		// Everything the view draws is escaped as it arrives, but the
		// key's name and controller: shows() matches them to the table's.
		var ctl, name string
		if msg.data.Key != nil {
			ctl, name = msg.data.Key.Controller, msg.data.Key.Key.Key
		}
		d.input = explainInput(msg.data)
		printableFields(msg.data)
		if msg.data.Key != nil {
			msg.data.Key.Controller, msg.data.Key.Key.Key = ctl, name
		}
		d.data, d.fetchedAt = msg.data, msg.fetchedAt
	}
	d.clamp()
	return d
}

// update handles the detail view's keys, and returns what the root must do.
// The scroll offset is clamped here, so that every key moves the view.
func (d detailModel) update(msg tea.KeyPressMsg) (detailModel, tea.Cmd, intent) {
	k := d.c.keys.detail()
	switch {
	case key.Matches(msg, k.Leave):
		return d, nil, backIntent{}
	case key.Matches(msg, k.RefusedForget, k.RefusedRetry):
		name := ""
		if kd := d.keyOf(); kd != nil {
			name = kd.Key.Key
		}
		return d, nil, d.c.refusedIntent(key.Matches(msg, k.RefusedForget), key.Matches(msg, k.RefusedRetry), name)
	case key.Matches(msg, k.Forget, k.Retry):
		if kd := d.keyOf(); kd != nil {
			return d, nil, askIntent{oneKey(key.Matches(msg, k.Retry), &kd.Key)}
		}
	default:
		scrollBy(k.scrollKeys, msg, &d.scroll, max(1, d.room()-1), len(d.body()))
	}
	d.clamp()
	return d, nil, nil
}

// headLines is how many lines the title and status take above the body.
const headLines = 3

// room is how many lines the body has on screen.
func (d *detailModel) room() int { return max(1, d.c.bodyHeight()-headLines) }

// clamp keeps the scroll offset within the body: the last screenful ends
// at the body's last line (the "more lines" note takes the bottom line).
func (d *detailModel) clamp() {
	d.scroll = clampText(d.scroll, len(d.body()), d.room())
}

// setSize re-clamps the scroll to the terminal's new size.
func (d detailModel) setSize() detailModel {
	d.clamp()
	return d
}

// body is the scrolled part of the view: the diagnosis, the timeline and
// the object.
func (d *detailModel) body() []string {
	if d.data == nil {
		return nil
	}
	now := d.c.serverNow(d.data.Key.ServerTime, d.fetchedAt)
	body := d.diagnosis(now)
	body = append(body, "")
	if v := d.verdict(now); v != nil {
		body = append(append(append(body, v...), d.blockerLines()...), "")
	}
	body = append(body, d.timeline(now)...)
	body = append(body, "")
	return append(body, d.object(now)...)
}

// view renders the detail view in height-1 lines.
func (d *detailModel) view() string {
	s := &d.c.styles
	w, h := d.c.width, d.c.height-1
	title := s.title.Render("backoff") + s.dim.Render(" › ") + explain.Printable(d.controller) + s.dim.Render(" › ") + s.bold.Render(explain.Printable(d.key))
	var lines []string
	if d.data == nil {
		lines = append(lines, fit(title, w))
		switch {
		case d.err != nil:
			lines = append(lines, s.bad.Render(fit("✗ "+causeText(d.err), w)))
		default:
			lines = append(lines, s.dim.Render("loading…"))
		}
		return strings.Join(pad(lines, h), "\n")
	}
	k := &d.data.Key.Key
	now := d.c.serverNow(d.data.Key.ServerTime, d.fetchedAt)
	status := s.stateStyle(k.State).Render(string(k.State)) + " · " + failuresText(k)
	if k.State == api.StateBackoff || k.State == api.StateScheduled {
		status += " · next retry " + countdown(k.NextRetryAt, now)
	}
	if d.data.Key.Pod != "" {
		status += s.dim.Render(" · " + d.data.Key.Pod)
	}
	if d.err != nil {
		status += s.bad.Render(" · ✗ " + causeText(d.err))
	}
	if d.c.paused {
		status += s.warn.Render(" · ⏸ PAUSED")
	}
	head := []string{fit(title, w), fit(status, w), ""}
	lines = append(head, scrolledText(d.body(), d.scroll, d.room(), s)...)
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return strings.Join(pad(lines, h), "\n")
}

// proseIndent is the hanging indent of a wrapped paragraph, so that where
// one sentence of the explanation ends and the next begins still shows.
const proseIndent = 2

// diagnosis is the explanation, in words: each paragraph wrapped to the
// width with a hanging indent, never cut.
func (d *detailModel) diagnosis(now time.Time) []string {
	s := &d.c.styles
	dg := d.explain(now)
	w := d.c.width
	var out []string
	for _, l := range wrapIndent(dg.Summary, w, proseIndent) {
		out = append(out, s.bold.Render(l))
	}
	for _, det := range dg.Details {
		out = append(out, wrapIndent(det, w, proseIndent)...)
	}
	for _, f := range dg.Findings {
		for _, l := range wrapIndent("! "+d.finding(f), w, proseIndent) {
			out = append(out, s.warn.Render(l))
		}
	}
	return out
}

// finding is f as the view says it: where the view can retry the key, its
// own key r in place of the command a terminal would run.
func (d *detailModel) finding(f explain.Finding) string {
	if !d.c.keys.Retry.Enabled() || !f.Command.IsRetryNow() {
		return f.Message
	}
	return explain.Printable(f.Saying("r"))
}

// explain is the diagnosis at the server's time now. Explain is a pure
// function of the key and the time, so it runs again at each render: the
// narrative's "(in 4.4s)" then counts down with the header's "next retry",
// instead of standing at what it was when the key was read.
func (d *detailModel) explain(now time.Time) explain.Diagnosis {
	if now.IsZero() {
		return d.data.Diagnosis
	}
	in := d.input
	in.Now = now
	dg := explain.Explain(in)
	dg.Summary = explain.Printable(dg.Summary)
	for i, det := range dg.Details {
		dg.Details[i] = explain.Printable(det)
	}
	for i := range dg.Findings {
		dg.Findings[i].Message = explain.Printable(dg.Findings[i].Message)
	}
	return dg
}

// explainInput is a deep copy of what Explain reads of dd, so that
// escaping dd leaves it as read.
func explainInput(dd *inspector.Description) explain.Input {
	in := explain.Input{Controller: dd.Controller, Object: dd.Object, Fleet: dd.Fleet}
	if dd.Key != nil {
		in.Key = dd.Key.Key
	}
	out, _ := deepCopy(in)
	return out
}

// verdict is what the object says about its latest change, by the rule
// `why` uses (objstatus), above the attempts: "InProgress: generation 7,
// changed 12m ago by kubectl-client-side-apply; the controller has observed
// 6". A rule kstatus does not read, or a failure, adds its message. Nil
// when the object was not read.
func (d *detailModel) verdict(now time.Time) []string {
	o := d.data.Object
	if o == nil || o.Verdict.Status == "" {
		return nil
	}
	s := &d.c.styles
	v := o.Verdict
	line := objstatus.GenerationLine(v, o.SpecChange, func(t time.Time) string { return ago(t, now) })
	lines := wrapIndent("Object "+v.Status+": "+line, d.c.width, proseIndent)
	st := s.warn
	switch v.Status {
	case objstatus.Current:
		st = s.ok
	case objstatus.Failed:
		st = s.bad
	}
	lines[0] = s.label.Render("Object ") + st.Render(v.Status) + strings.TrimPrefix(lines[0], "Object "+v.Status)
	if v.Message != "" && (v.Status == objstatus.Failed || v.Override != "") {
		lines = append(lines, wrapIndent("  "+oneLine(v.Message), d.c.width, proseIndent+2)...)
	}
	return lines
}

// object is the object behind the key: generation, conditions, events.
func (d *detailModel) object(now time.Time) []string {
	s := &d.c.styles
	o := d.data.Object
	if o == nil {
		why := "not read: " + cmp.Or(d.c.opts.NoObjects, "no cluster access in this session")
		switch {
		case d.data.ObjectError != "":
			why = "not read: " + d.data.ObjectError
		case d.c.conn.objects != nil:
			why = "not read: the controller does not name its object kind"
		}
		return []string{s.label.Render("Object ") + s.dim.Render(why)}
	}
	gen := fmt.Sprintf("generation %d", o.Verdict.Generation)
	switch og := o.Verdict.ObservedGeneration; {
	case og == nil:
		gen += ", no status.observedGeneration"
	case o.Unobserved():
		gen += s.warn.Render(fmt.Sprintf(", observed %d — your edit is not observed yet", *og))
	default:
		gen += s.ok.Render(fmt.Sprintf(", observed %d", *og))
	}
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + o.Name
	}
	out := []string{s.label.Render("Object ") + o.Kind + " " + name + s.dim.Render(" · ") + gen}
	if o.DeletionTimestamp != nil {
		out = append(out, s.warn.Render("  deleting since "+clockTime(*o.DeletionTimestamp)+", finalizers "+strings.Join(o.Finalizers, ", ")))
	}
	for _, c := range o.Verdict.Conditions {
		st := c.Status
		if st != "True" {
			st = s.warn.Render(st)
		}
		out = append(out, fmt.Sprintf("  %s=%s  %s: %s %s", c.Type, st, c.Reason, oneLine(c.Message), s.dim.Render("("+ago(c.LastTransitionTime, now)+")")))
	}
	if len(o.Events) > 0 {
		out = append(out, s.label.Render("Events"))
	}
	for _, e := range o.Events[:min(len(o.Events), 5)] {
		typ := e.Type
		if typ == "Warning" {
			typ = s.warn.Render(typ)
		}
		count := ""
		if e.Count > 1 {
			count = fmt.Sprintf(" ×%d", e.Count)
		}
		out = append(out, fmt.Sprintf("  %s %s%s  %s %s", typ, e.Reason, count, oneLine(e.Message), s.dim.Render("("+ago(e.LastSeen, now)+")")))
	}
	return out
}

// shows is the key as the detail view last read it when it is
// controller's key; nil otherwise.
func (d *detailModel) shows(controller, key string) *api.Key {
	if d.data == nil || d.data.Key == nil {
		return nil
	}
	if k := &d.data.Key.Key; k.Controller == controller && k.Key == key {
		return k
	}
	return nil
}

// keyOf is the key the detail view shows, for actions.
func (d *detailModel) keyOf() *inspector.PodKeyDetail {
	if d.data == nil {
		return nil
	}
	return d.data.Key
}

// failuresText is a key's failures in words, as the wire counts them
// (Failures, the limiter's consecutive count). A failed key is never
// rate-limited again, so its count says little: the words say why it stops.
func failuresText(k *api.Key) string {
	n := explain.Plural(k.Failures, "failure")
	if k.State != api.StateFailed {
		return n
	}
	why := "terminal error, not retried"
	if r := explain.GaveUp(*k); r != nil {
		why = "gave up after " + explain.Plural(r.Failures, "retry") + ", not retried"
	}
	if k.Failures == 0 {
		return why
	}
	return why + " · " + n + " counted"
}
