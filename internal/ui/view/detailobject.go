package view

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The object behind a key, as the detail view shows it below the key's
// attempts: what its status says of the latest change (verdict), then its
// generation, conditions and events (object).

// verdict is what the object says about its latest change, by the rule
// `why` uses (objstatus), above the attempts: "InProgress: generation 7,
// changed 12m ago by kubectl-client-side-apply; the controller has observed
// 6". A rule kstatus does not read, or a failure, adds its message. Nil
// when the object was not read.
func (d *Detail) verdict(now time.Time) []string {
	o := d.Data.Object
	if o == nil || o.Verdict.Status == "" {
		return nil
	}
	s := &d.C.Styles
	v := o.Verdict
	line := objstatus.GenerationLine(v, o.SpecChange, func(t time.Time) string { return text.Ago(t, now) })
	// "Object: not ready (Failed); kstatus, which …": not "Object Failed",
	// which read as the key's state beside a key in backoff.
	words := objstatus.ObjectWords(v)
	lines := text.WrapIndent("Object: "+words+": "+line, d.C.Width, proseIndent)
	st := s.Warn
	switch v.Status {
	case objstatus.Current:
		st = s.OK
	case objstatus.Failed:
		st = s.Bad
	}
	if head, ok := strings.CutPrefix(lines[0], "Object: "); ok {
		lines[0] = s.Label.Render("Object: ") + st.Render(head)
	}
	if v.Message != "" && (v.Status == objstatus.Failed || v.Override != "") {
		lines = append(lines, text.WrapIndent("  "+text.OneLine(v.Message, 0), d.C.Width, proseIndent+2)...)
	}
	return lines
}

// object is the object behind the key: generation, conditions, events.
func (d *Detail) object(now time.Time) []string {
	s := &d.C.Styles
	o := d.Data.Object
	if o == nil {
		why := "not read: " + cmp.Or(d.C.Opts.NoObjects, "no cluster access in this session")
		switch {
		case d.Data.ObjectError != "":
			why = "not read: " + d.Data.ObjectError
		case d.C.Conn.Objects != nil:
			why = "not read: the controller does not name its object kind"
		}
		return []string{s.Label.Render("Object ") + s.Dim.Render(why)}
	}
	gen := fmt.Sprintf("generation %d", o.Verdict.Generation)
	switch og := o.Verdict.ObservedGeneration; {
	case og == nil && o.Verdict.Generation == 0:
		gen = "no generation" // a ConfigMap: not "generation 0"
	case og == nil:
		gen += ", no status.observedGeneration"
	case o.Unobserved():
		gen += s.Warn.Render(fmt.Sprintf(", observed %d — your edit is not observed yet", *og))
	default:
		gen += s.OK.Render(fmt.Sprintf(", observed %d", *og))
	}
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + o.Name
	}
	out := []string{s.Label.Render("Object ") + o.Kind + " " + name + s.Dim.Render(" · ") + gen}
	if o.DeletionTimestamp != nil {
		out = append(out, s.Warn.Render("  deleting since "+text.TimeOfDay(*o.DeletionTimestamp)+", finalizers "+strings.Join(o.Finalizers, ", ")))
	}
	for _, c := range o.Verdict.Conditions {
		st := c.Status
		if st != "True" {
			st = s.Warn.Render(st)
		}
		out = append(out, fmt.Sprintf("  %s=%s  %s: %s %s", c.Type, st, c.Reason, text.OneLine(c.Message, 0), s.Dim.Render("("+text.Ago(c.LastTransitionTime, now)+")")))
	}
	if len(o.Events) > 0 {
		out = append(out, s.Label.Render("Events"))
	}
	for _, e := range o.Events[:min(len(o.Events), 5)] {
		typ := e.Type
		if typ == "Warning" {
			typ = s.Warn.Render(typ)
		}
		count := ""
		if e.Count > 1 {
			count = fmt.Sprintf(" ×%d", e.Count)
		}
		out = append(out, fmt.Sprintf("  %s %s%s  %s %s", typ, e.Reason, count, text.OneLine(e.Message, 0), s.Dim.Render("("+text.Ago(e.LastSeen, now)+")")))
	}
	return out
}
