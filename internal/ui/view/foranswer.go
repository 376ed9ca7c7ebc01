package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// answerLines is the answer `why TYPE/NAME` prints for the object open in
// the `top --for` view, in the UI's words: the verdict and the change, the
// answer and the next steps, the evidence, the controller, the key's
// backoff and the Events. Prose is wrapped, never cut.
func (f *For) answerLines() []string { return answerText(f.C, f.shown()) }

// answerText is an answer in the UI's words, for the view that shows it
// (`top --for`, the chain view); nil for none.
func answerText(c *Common, a *objwhy.Answer) []string {
	if a == nil {
		return nil
	}
	s := &c.Styles
	w := c.Width
	now := a.Now
	para := func(s string) []string { return text.WrapIndent(s, w, proseIndent) }
	var out []string
	ns := ""
	if a.Object.Namespace != "" {
		ns = " -n " + a.Object.Namespace
	}
	out = append(out, s.Label.Render("Object  ")+a.Object.Ref()+ns)
	status := objstatus.ObjectWords(a.Verdict) // "not ready (Failed)": not the word of a key's state
	st := para("Status  " + status + ": " + a.GenerationLine())
	st[0] = s.Label.Render("Status  ") + strings.TrimPrefix(st[0], "Status  ")
	out = append(out, st...)
	out = append(out, "")
	for _, l := range para(a.Summary) {
		out = append(out, s.Bold.Render(l))
	}
	for _, n := range a.Next {
		out = append(out, para("> "+n)...)
	}
	if b, more := a.ChainBlocker(); b != nil {
		bl := para("Waits for " + b.Object.Ref() + ": " + b.Said() + objwhy.MoreBlockers(more))
		bl[0] = s.Label.Render("Waits for ") + strings.TrimPrefix(bl[0], "Waits for ")
		out = append(out, bl...)
	}
	for _, r := range a.Refused {
		for _, l := range para("! " + r) {
			out = append(out, s.Warn.Render(l))
		}
	}
	out = append(out, "", s.Label.Render("Evidence"))
	for _, e := range a.Verdict.Evidence {
		out = append(out, para("  "+text.OneLine(e, 0))...)
	}
	for _, c := range a.Verdict.Conditions {
		st := c.Status
		if st != "True" {
			st = s.Warn.Render(st)
		}
		obs := ""
		if c.Stale {
			obs = s.Warn.Render(fmt.Sprintf(" (stale: observed at generation %d)", c.ObservedGeneration))
		}
		out = append(out, fmt.Sprintf("  %s=%s  %s: %s%s", c.Type, st, c.Reason, text.OneLine(c.Message, 0), obs))
	}
	out = append(out, "", s.Label.Render("Controller"))
	out = append(out, controllerLines(c, a, now)...)
	if b := a.Backoff; b != nil || a.BackoffError != "" {
		out = append(out, "", s.Label.Render("Backoff ")+a.BackoffBrief())
		switch {
		case b == nil:
			out = append(out, para("  could not be read: "+a.BackoffError)...)
		case b.Key == nil:
			out = append(out, para("  "+b.NotTracked)...)
		case b.Key.LastError != nil:
			out = append(out, para("  last error: "+text.OneLine(b.Key.LastError.Message, 0)+" ("+text.Ago(b.Key.LastError.At, b.ServerTime)+")")...)
		}
	}
	if len(a.Events) > 0 {
		out = append(out, "", s.Label.Render("Events"))
	}
	for _, e := range a.Events[:min(len(a.Events), 5)] {
		typ := e.Type
		if typ == "Warning" {
			typ = s.Warn.Render(typ)
		}
		out = append(out, fmt.Sprintf("  %s %s  %s %s", typ, e.Reason, text.OneLine(e.Message, 0), s.Dim.Render("("+text.Ago(e.LastSeen, now)+")")))
	}
	return out
}

// controllerLines say who owns the status and how its pods were found.
func controllerLines(c *Common, a *objwhy.Answer, now time.Time) []string {
	var out []string
	if ms := a.Ownership.StatusManagers; len(ms) > 0 {
		names := make([]string, len(ms))
		for i, m := range ms {
			names[i] = m.Manager + " (" + text.Ago(m.Time, now) + ")"
		}
		out = append(out, "  status manager: "+strings.Join(names, ", "))
	}
	ctl := a.Controller
	if ctl == nil {
		return append(out, "  not searched")
	}
	if ctl.Found() {
		instr := "not instrumented: its log is read"
		if ctl.Instrumented {
			instr = "instrumented"
		}
		where := fmt.Sprintf("pods: %s -n %s", ctl.Target, ctl.Namespace)
		if ctl.Rule == objwhy.RuleAddr {
			// --addr: an endpoint outside the cluster, no pod, no namespace (why prints it so).
			where = "endpoint: " + ctl.Target
		}
		out = append(out, fmt.Sprintf("  %s (%s)", where, instr))
	}
	return append(out, text.WrapIndent(fmt.Sprintf("  found by %s: %s", ctl.Rule, ctl.How), c.Width, proseIndent+2)...)
}
