package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// ControllersInput takes nothing: every controller of the source.
type ControllersInput struct{}

// ControllersOutput is each controller with its diagnosis line.
type ControllersOutput struct {
	ServerTime  time.Time           `json:"serverTime"`
	Controllers []ControllerSummary `json:"controllers"`
	// Source says where the answers come from when it is not a live
	// instrumented process (a log, a snapshot): its numbers may be estimates.
	Source *api.ListSource `json:"source,omitempty"`
}

// ControllerSummary is v1/controllers' controller (counts by state, limiter,
// forecast) with describe --controller's one-line diagnosis.
type ControllerSummary struct {
	api.Controller
	Situation string `json:"situation"`
	Diagnosis string `json:"diagnosis"`
}

// KeysInput is get's selection.
type KeysInput struct {
	Controller string `json:"controller,omitempty" jsonschema:"only keys of this controller"`
	State      List   `json:"state,omitempty" jsonschema:"only keys in these states: backoff, scheduled, queued, running, failed, idle (unknown for a log)"`
	Query      string `json:"query,omitempty" jsonschema:"only keys whose name or last error contains this (smart case; a leading ~ makes it a regular expression), as get -q"`
	Error      string `json:"error,omitempty" jsonschema:"only keys whose last error alone matches this, in query's syntax (an error group's keys)"`
	Sort       string `json:"sort,omitempty" jsonschema:"order: retrying (default: backing-off keys first, the longest failing on top), next, failures, attention, key, ..."`
	Limit      int    `json:"limit,omitempty" jsonschema:"at most this many keys (default 20, at most 100)"`
	Offset     int    `json:"offset,omitempty" jsonschema:"skip this many matching keys: the next page is offset+limit"`
}

// KeysOutput is a page of keys, as v1/keys gives it, and what was left out.
type KeysOutput struct {
	ServerTime time.Time          `json:"serverTime"`
	Total      int                `json:"total"`
	Matched    int                `json:"matched"`
	Offset     int                `json:"offset"`
	Items      []inspector.PodKey `json:"items"`
	// More says how many matching keys were left out, and how to ask.
	More        string   `json:"more,omitempty"`
	Unreachable []string `json:"unreachable,omitempty"`
}

// KeyInput names one key.
type KeyInput struct {
	Key        string `json:"key" jsonschema:"the key, NAMESPACE/NAME as keys lists it"`
	Controller string `json:"controller,omitempty" jsonschema:"its controller; needed only when several track the key"`
}

// KeyOutput is describe's answer: the key with its history, its
// controller, the object behind it, and the diagnosis.
type KeyOutput struct {
	describe.Description
	// More says what of the history was left out.
	More string `json:"more,omitempty"`
}

// ErrorGroupsInput selects the keys whose errors are grouped.
type ErrorGroupsInput struct {
	Controller string `json:"controller,omitempty" jsonschema:"only this controller's keys"`
	State      List   `json:"state,omitempty" jsonschema:"the keys' states (default backoff,failed: the keys still failing, and unknown for a log; add idle for those that recovered)"`
	Limit      int    `json:"limit,omitempty" jsonschema:"at most this many groups, the largest (default and most 20)"`
}

// ErrorGroupsOutput is v1/errors: exact counts, largest group first.
type ErrorGroupsOutput struct {
	api.ErrorGroupList
	More string `json:"more,omitempty"`
}

func addReadTools(s *mcp.Server, h *handlers) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	mcp.AddTool(s, &mcp.Tool{Name: "controllers", Annotations: ro, OutputSchema: outputSchema[ControllersOutput](),
		Description: "Each controller of the source: keys by state, limiter, the retries to come, and a one-line diagnosis (as `kubectl backoff describe` says for a controller)."}, h.controllers)
	mcp.AddTool(s, &mcp.Tool{Name: "keys", Annotations: ro, InputSchema: inputSchema[KeysInput](), OutputSchema: outputSchema[KeysOutput](),
		Description: "List keys with their backoff state, filtered and sorted as `kubectl backoff get`: state, consecutive failures, next retry, the delay and the limiter that chose it, the last error. At most 100 a call; page with offset."}, h.keys)
	mcp.AddTool(s, &mcp.Tool{Name: "key", Annotations: ro, OutputSchema: outputSchema[KeyOutput](),
		Description: "One key in full, as `kubectl backoff describe`: the diagnosis (why it is or is not reconciled, and what to do), counters, the attempt history (why each attempt ran), and the object behind it with its conditions and events."}, h.key)
	mcp.AddTool(s, &mcp.Tool{Name: "error_groups", Annotations: ro, InputSchema: inputSchema[ErrorGroupsInput](), OutputSchema: outputSchema[ErrorGroupsOutput](),
		Description: "What the failing keys fail with: their last errors grouped (numbers, addresses and names folded), exact counts, largest first, with example keys (as `kubectl backoff get` groups them by error)."}, h.errorGroups)
}

func (h *handlers) controllers(ctx context.Context, _ *mcp.CallToolRequest, _ ControllersInput) (*mcp.CallToolResult, *ControllersOutput, error) {
	s := h.cfg.Session
	ov, err := s.Overview(ctx)
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	ds, err := describe.DiagnoseControllers(ctx, s, "")
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	out := &ControllersOutput{ServerTime: ov.ServerTime, Source: ov.Source, Controllers: []ControllerSummary{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", text.Plural(len(ov.Controllers), "controller"))
	for _, c := range ov.Controllers {
		sum := ControllerSummary{Controller: c}
		if i := slices.IndexFunc(ds, func(d explain.ControllerDiagnosis) bool { return d.Controller == c.Name }); i >= 0 {
			d := ds[i].For(explain.Session{Attach: h.cfg.Attach})
			sum.Situation, sum.Diagnosis = d.Situation, d.Summary
		}
		sum.Forecast = nil // 60 numbers a controller: Pending sums them
		out.Controllers = append(out.Controllers, sum)
		fmt.Fprintf(&b, "- %s: %d keys (%s); %s\n", c.Name, c.Keys, countsText(c.Counts), sum.Diagnosis)
	}
	if ov.Source != nil {
		fmt.Fprintln(&b, "Read from a log or a snapshot, not a live endpoint: numbers may be estimates.")
	}
	bound(out)
	return textResult(b.String()), out, nil
}

// countsText is a controller's keys by state, the non-zero ones.
func countsText(c map[api.State]int) string {
	var parts []string
	for _, st := range append(slices.Clone(api.States), api.StateUnknown) {
		if n := c[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// states reads a state list as the CLI's --state does, naming the input.
func states(vals List) ([]api.State, error) {
	st, err := query.ParseStates(vals, query.LogStates)
	if err != nil {
		return nil, inputError(err) // names the states, unknown (a log's) among them
	}
	return st, nil
}

func (h *handlers) keys(ctx context.Context, _ *mcp.CallToolRequest, in KeysInput) (*mcp.CallToolResult, *KeysOutput, error) {
	q, err := keyQuery(in)
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	l, err := h.cfg.Session.Keys(ctx, q)
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	out := &KeysOutput{ServerTime: l.ServerTime, Total: l.Total, Matched: l.Matched, Offset: q.Offset, Items: l.Items, Unreachable: l.Unreachable}
	if out.Items == nil {
		out.Items = []inspector.PodKey{}
	}
	if rest := l.Matched - q.Offset - len(l.Items); rest > 0 {
		out.More = fmt.Sprintf("%d more matching keys; ask with offset %d (limit up to %d), or narrow with state, controller, query or error", rest, q.Offset+len(l.Items), maxKeys)
	}
	var b strings.Builder
	switch {
	case len(l.Items) == 0 && l.Matched == 0:
		fmt.Fprintf(&b, "No keys match (%d tracked).\n", l.Total)
	case len(l.Items) == 0:
		fmt.Fprintf(&b, "%d of %d tracked keys match; none at offset %d.\n", l.Matched, l.Total, q.Offset)
	default:
		fmt.Fprintf(&b, "%d of %d tracked keys match; keys %d-%d:\n", l.Matched, l.Total, q.Offset+1, q.Offset+len(l.Items))
	}
	for _, k := range l.Items {
		b.WriteString(keyLine(k, l.ServerTime))
	}
	if out.More != "" {
		b.WriteString(out.More + ".\n")
	}
	bound(out)
	return textResult(b.String()), out, nil
}

// keyQuery is in as v1/keys takes it, checked by the engine the servers
// parse it with, so that a refusal names the input before any request.
func keyQuery(in KeysInput) (inspector.KeyQuery, error) {
	st, err := states(in.State)
	if err != nil {
		return inspector.KeyQuery{}, err
	}
	sort := in.Sort
	if sort == "" {
		sort = api.SortRetrying
	}
	if _, err := api.ParseSort(sort); err != nil {
		return inspector.KeyQuery{}, fmt.Errorf("sort %q: use %s", in.Sort, api.SortNames())
	}
	for _, p := range []struct{ field, expr string }{{"q", in.Query}, {"error", in.Error}} {
		if err := query.CheckPattern(p.field, p.expr); err != nil {
			return inspector.KeyQuery{}, err
		}
	}
	switch {
	case in.Limit < 0 || in.Limit > maxKeys:
		return inspector.KeyQuery{}, fmt.Errorf("limit %d: between 1 and %d keys a call (0 for %d); page with offset", in.Limit, maxKeys, defaultKeys)
	case in.Offset < 0:
		return inspector.KeyQuery{}, fmt.Errorf("offset %d: must be 0 or more", in.Offset)
	}
	limit := in.Limit
	if limit == 0 {
		limit = defaultKeys
	}
	return inspector.KeyQuery{Controller: in.Controller, Q: in.Query, Error: in.Error, States: st, Sort: sort, Limit: limit, Offset: in.Offset}, nil
}

// keyLine is one key in a line a model reads: where, what state, how many
// failures, when next, and the last error, cut.
func keyLine(k inspector.PodKey, now time.Time) string {
	line := fmt.Sprintf("- %s [%s] %s, %d failures, next retry %s", k.Key.Key, k.Controller, k.State, k.Failures, explain.NextRetryText(k.Key, now))
	if k.DelaySource != "" {
		line += " (" + k.DelaySource + ")"
	}
	if k.LastError != nil && k.LastError.Message != "" {
		line += ": " + capText(strings.Join(strings.Fields(k.LastError.Message), " "), 160)
	}
	return capText(line, 400) + "\n"
}

// textResult is the short summary a model reads first; the structured
// answer travels beside it.
func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: summary(s)}}}
}

// summary escapes a summary text: every line of it may quote a cluster or a log.
func summary(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = capText(l, 4*maxMessage)
	}
	return strings.Join(lines, "\n")
}
