package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

func (h *handlers) key(ctx context.Context, _ *mcp.CallToolRequest, in KeyInput) (*mcp.CallToolResult, *KeyOutput, error) {
	if strings.TrimSpace(in.Key) == "" {
		return nil, nil, errors.New("key: give the key, NAMESPACE/NAME as keys lists it (e.g. default/my-widget)")
	}
	s := h.cfg.Session
	d, err := describe.Describe(ctx, s, in.Controller, in.Key, h.cfg.Objects)
	if k, ok := text.ReadBack(in.Key); err != nil && ok {
		// A key with control characters, copied as an answer shows it escaped.
		if d2, err2 := describe.Describe(ctx, s, in.Controller, k, h.cfg.Objects); err2 == nil {
			d, err = d2, nil
		}
	}
	if amb, ok := errors.AsType[*inspector.AmbiguousKeyError](err); ok {
		return nil, nil, h.toolError(fmt.Errorf("%w: name one with controller", amb))
	}
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	if h.cfg.Attach != "" {
		// The commands it suggests act on this key, reached as the server is.
		d.Diagnosis = d.Diagnosis.For(explain.Session{Attach: h.cfg.Attach, Key: d.Key.Key.Key, Controller: d.Key.Controller})
	} else {
		d.Diagnosis = d.Diagnosis.For(explain.Session{})
	}
	if d.ObjectErr != nil && d.ObjectError == "" {
		d.ObjectError = d.ObjectErr.Error()
	}
	out := &KeyOutput{Description: *d}
	if hist := d.Key.History; len(hist) > maxHistory {
		// The newest attempts say what happens now; the count says the rest.
		d.Key.History = hist[len(hist)-maxHistory:]
		out.More = fmt.Sprintf("%d older attempts left out (the newest %d are kept)", len(hist)-maxHistory, maxHistory)
	}
	bound(out)
	return textResult(keySummary(d, h.cfg.Objects == nil)), out, nil
}

// keySummary is describe's first lines: the key, its state, the diagnosis,
// the counters that matter, and the object's verdict.
func keySummary(d *describe.Description, noObjects bool) string {
	k, now := d.Key, d.Key.ServerTime
	var b strings.Builder
	fmt.Fprintf(&b, "Key %s of controller %s: %s.\n", k.Key.Key, k.Controller, k.State)
	for _, line := range append([]string{d.Diagnosis.Summary}, d.Diagnosis.Details...) {
		b.WriteString(line + "\n")
	}
	for _, f := range d.Diagnosis.Findings {
		b.WriteString("! " + f.Message + "\n")
	}
	fmt.Fprintf(&b, "Failures: %s; next retry %s; delay %s (%s).\n",
		explain.CountersText(k.KeyDetail.Key, d.Source), explain.NextRetryText(k.KeyDetail.Key, now),
		text.FormatDuration(k.Delay.Duration), orDash(k.DelaySource))
	fmt.Fprintf(&b, "History: %d attempts (in the structured answer, oldest first).\n", len(k.History))
	switch {
	case d.Object != nil && d.Object.Verdict.Status != "" && d.Object.Verdict.Generation == 0:
		fmt.Fprintf(&b, "Object: %s.\n", d.Object.Verdict.Status) // a ConfigMap has no generation: not "0"
	case d.Object != nil && d.Object.Verdict.Status != "":
		fmt.Fprintf(&b, "Object: %s (generation %d).\n", d.Object.Verdict.Status, d.Object.Verdict.Generation)
	case d.ObjectError != "":
		fmt.Fprintf(&b, "Object: could not read it: %s\n", d.ObjectError)
	case noObjects:
		b.WriteString("Object: not read (no cluster attached).\n")
	}
	return b.String()
}

func (h *handlers) errorGroups(ctx context.Context, _ *mcp.CallToolRequest, in ErrorGroupsInput) (*mcp.CallToolResult, *ErrorGroupsOutput, error) {
	st, err := states(in.State)
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	if len(st) == 0 {
		st = explain.ErrorStates(h.cfg.FromLogs) // an idle key keeps the error it recovered from
	}
	if in.Limit < 0 || in.Limit > maxGroups {
		return nil, nil, h.toolError(fmt.Errorf("limit %d: between 1 and %d groups, the largest (0 for %d)", in.Limit, maxGroups, maxGroups))
	}
	limit := in.Limit
	if limit == 0 {
		limit = maxGroups
	}
	l, err := h.cfg.Session.Errors(ctx, in.Controller, api.Filter{States: st})
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	out := &ErrorGroupsOutput{ErrorGroupList: *l}
	if out.Groups == nil {
		out.Groups = []api.ErrorGroup{}
	}
	if n := len(out.Groups); n > limit {
		out.Groups = out.Groups[:limit]
		out.More = fmt.Sprintf("%d smaller groups left out; narrow with controller or state (limit is at most %d)", n-limit, maxGroups)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d tracked keys have an error (states %s), in %s:\n", l.Matched, l.Total, stateList(st), text.Plural(len(l.Groups), "group"))
	for i := range out.Groups {
		g := &out.Groups[i]
		if len(g.Examples) > maxExamples {
			g.Examples = g.Examples[:maxExamples]
		}
		fmt.Fprintf(&b, "- %d keys of %s (%s): %s; e.g. %s\n", g.Count, g.Controller, orDash(explain.ErrorClassText(g.Class)),
			capText(strings.Join(strings.Fields(g.Message), " "), 200), strings.Join(g.Examples, ", "))
	}
	if out.More != "" {
		b.WriteString(out.More + ".\n")
	}
	bound(out)
	return textResult(b.String()), out, nil
}

// stateList is states as the state input takes them: backoff,failed.
func stateList(states []api.State) string {
	s := make([]string, len(states))
	for i, st := range states {
		s[i] = string(st)
	}
	return strings.Join(s, ",")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
