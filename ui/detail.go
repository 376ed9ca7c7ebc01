package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// detailModel explains one key: the diagnosis in words, the timeline of its
// attempts, and the object behind it.
type detailModel struct {
	c *common

	controller, key string
	data            *detailData
	err             error
	fetchedAt       time.Time
	scroll          int
	inflight        bool
	lastSent        time.Time
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
	o := d.c.opts
	return detailCmd(o.ctx, o.Session, o.Objects, o.Clock, d.controller, d.key)
}

func (d detailModel) received(msg detailFetchedMsg) detailModel {
	if msg.controller != d.controller || msg.key != d.key {
		return d
	}
	d.inflight = false
	d.err = msg.err
	if msg.data != nil {
		d.data, d.fetchedAt = msg.data, msg.fetchedAt
	}
	return d
}

func (d detailModel) update(msg tea.KeyPressMsg) (detailModel, tea.Cmd) {
	k := d.c.keys
	switch {
	case key.Matches(msg, k.Up):
		d.scroll = max(0, d.scroll-1)
	case key.Matches(msg, k.Down):
		d.scroll++
	case key.Matches(msg, k.PageUp):
		d.scroll = max(0, d.scroll-(d.c.height-2))
	case key.Matches(msg, k.PageDown):
		d.scroll += d.c.height - 2
	case key.Matches(msg, k.Home):
		d.scroll = 0
	}
	return d, nil
}

// view renders the detail view in height-1 lines.
func (d *detailModel) view() string {
	s := &d.c.styles
	w, h := d.c.width, d.c.height-1
	title := s.title.Render("backoff") + s.dim.Render(" › ") + d.controller + s.dim.Render(" › ") + s.bold.Render(d.key)
	var lines []string
	if d.data == nil {
		lines = append(lines, fit(title, w))
		switch {
		case d.err != nil:
			lines = append(lines, s.bad.Render(fit("✗ "+oneLine(d.err.Error()), w)))
		default:
			lines = append(lines, s.dim.Render("loading…"))
		}
		return strings.Join(pad(lines, h), "\n")
	}
	k := &d.data.key.Key
	now := d.c.serverNow(d.data.key.ServerTime, d.fetchedAt)
	status := s.stateStyle(k.State).Render(string(k.State)) + fmt.Sprintf(" · %d failures", k.Failures)
	if k.State == "backoff" || k.State == "scheduled" {
		status += " · next retry " + countdown(k.NextRetryAt, now)
	}
	if d.data.key.Pod != "" {
		status += s.dim.Render(" · " + d.data.key.Pod)
	}
	if d.err != nil {
		status += s.bad.Render(" · ✗ " + oneLine(d.err.Error()))
	}
	if d.c.paused {
		status += s.warn.Render(" · ⏸ PAUSED")
	}
	head := []string{fit(title, w), fit(status, w), ""}
	body := d.diagnosis()
	body = append(body, "")
	body = append(body, d.timeline(now)...)
	body = append(body, "")
	body = append(body, d.object(now)...)
	room := h - len(head)
	d.scroll = max(0, min(d.scroll, len(body)-room))
	body = body[d.scroll:]
	if len(body) > room && room > 1 {
		body = append(body[:room-1], s.dim.Render(fmt.Sprintf("↓ %d more lines: j/k or pgdn to scroll", len(body)-room+1)))
	}
	lines = append(head, body...)
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return strings.Join(pad(lines, h), "\n")
}

// diagnosis is the explanation, in words, wrapped.
func (d *detailModel) diagnosis() []string {
	s := &d.c.styles
	dg := d.data.diagnosis
	w := d.c.width
	var out []string
	for _, l := range wrap(dg.Summary, w) {
		out = append(out, s.bold.Render(l))
	}
	for _, det := range dg.Details {
		out = append(out, wrap(det, w)...)
	}
	for _, f := range dg.Findings {
		for i, l := range wrap("! "+f.Message, w) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, s.warn.Render(l))
		}
	}
	return out
}

// object is the object behind the key: generation, conditions, events.
func (d *detailModel) object(now time.Time) []string {
	s := &d.c.styles
	o := d.data.object
	if o == nil {
		why := "not read: no cluster access (attached with --addr)"
		switch {
		case d.data.objectErr != "":
			why = "not read: " + d.data.objectErr
		case d.c.opts.Objects != nil:
			why = "not read: the controller does not name its object kind"
		}
		return []string{s.label.Render("Object ") + s.dim.Render(why)}
	}
	gen := fmt.Sprintf("generation %d", o.Generation)
	switch {
	case o.ObservedGeneration == nil:
		gen += ", no status.observedGeneration"
	case *o.ObservedGeneration < o.Generation:
		gen += s.warn.Render(fmt.Sprintf(", observed %d — your edit is not observed yet", *o.ObservedGeneration))
	default:
		gen += s.ok.Render(fmt.Sprintf(", observed %d", *o.ObservedGeneration))
	}
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + o.Name
	}
	out := []string{s.label.Render("Object ") + o.Kind + " " + name + s.dim.Render(" · ") + gen}
	if o.DeletionTimestamp != nil {
		out = append(out, s.warn.Render("  deleting since "+clockTime(*o.DeletionTimestamp)+", finalizers "+strings.Join(o.Finalizers, ", ")))
	}
	for _, c := range o.Conditions {
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

// keyOf is the key the detail view shows, for actions.
func (d *detailModel) keyOf() *inspector.PodKeyDetail {
	if d.data == nil {
		return nil
	}
	return d.data.key
}
