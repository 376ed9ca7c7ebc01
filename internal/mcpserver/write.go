package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
)

// ForgetInput is forget's: KEYs, or all keys of a controller that match.
type ForgetInput struct {
	Controller string `json:"controller,omitempty" jsonschema:"the keys' controller (required with all; found for each key otherwise)"`
	Keys       List   `json:"keys,omitempty" jsonschema:"the keys to forget, NAMESPACE/NAME"`
	All        bool   `json:"all,omitempty" jsonschema:"forget every key of controller that state and query select, instead of keys"`
	State      List   `json:"state,omitempty" jsonschema:"with all: only keys in these states"`
	Query      string `json:"query,omitempty" jsonschema:"with all: only keys whose name or last error contains this"`
	Requeue    bool   `json:"requeue,omitempty" jsonschema:"also retry them now (the queue decorator is needed)"`
	Reason     string `json:"reason,omitempty" jsonschema:"why, recorded with the reset and in the object's Event"`
	DryRun     bool   `json:"dry_run,omitempty" jsonschema:"say what would be forgotten, and change nothing"`
}

// ForgetOutput is the endpoint's answer per controller.
type ForgetOutput struct {
	Results []api.ForgetResponse `json:"results"`
	More    string               `json:"more,omitempty"`
}

// KickInput names the keys whose objects are touched.
type KickInput struct {
	Controller string `json:"controller,omitempty" jsonschema:"the keys' controller, whose kind the objects are (needed when the source has several)"`
	Keys       List   `json:"keys" jsonschema:"the keys, NAMESPACE/NAME"`
	DryRun     bool   `json:"dry_run,omitempty" jsonschema:"say what would be patched, and patch nothing"`
}

// KickOutput is what was patched.
type KickOutput struct {
	DryRun bool         `json:"dryRun,omitempty"`
	Kicked []KickedItem `json:"kicked"`
}

// KickedItem is one object patched (or, dry, to be).
type KickedItem struct {
	Key      string    `json:"key"`
	Resource string    `json:"resource,omitempty"`
	At       time.Time `json:"at,omitzero"`
}

// errReadOnly is what a write tool answers when writes are not allowed,
// with how to allow them in the words of the command that started it.
func errReadOnly(tool, how string) error {
	if how == "" {
		return fmt.Errorf("%s changes the controller's state, and this server is read-only (each call would be audited)", tool)
	}
	return fmt.Errorf("%s changes the controller's state, and this server is read-only: %s to allow forget and kick (each call is audited)", tool, how)
}

func addWriteTools(s *mcp.Server, h *handlers) {
	w := &mcp.ToolAnnotations{DestructiveHint: new(false), OpenWorldHint: new(false)}
	mcp.AddTool(s, &mcp.Tool{Name: "forget", Annotations: w, InputSchema: inputSchema[ForgetInput](), OutputSchema: outputSchema[ForgetOutput](),
		Description: "Reset keys' backoff (and with requeue, retry them now), as `kubectl backoff forget`; dry_run says what it would do. Refused unless the server allows writes; every call is audited with the client's name and the user."}, h.forget)
	mcp.AddTool(s, &mcp.Tool{Name: "kick", Annotations: w, InputSchema: inputSchema[KickInput](), OutputSchema: outputSchema[KickOutput](),
		Description: "Make the controller reconcile the objects behind keys now, by patching an annotation on them (`kubectl backoff kick`): for controllers read from a log, where forget cannot. Does not reset the failure count. Refused unless the server allows writes; audited."}, h.kick)
}

func (h *handlers) forget(ctx context.Context, req *mcp.CallToolRequest, in ForgetInput) (*mcp.CallToolResult, *ForgetOutput, error) {
	if !h.cfg.AllowWrite {
		return nil, nil, errReadOnly("forget", h.cfg.AllowWriteHow)
	}
	reqs, err := h.forgetRequests(ctx, req, in)
	if err != nil {
		return nil, nil, h.toolError(err)
	}
	resps, err := h.cfg.Session.ForgetEach(ctx, reqs)
	for _, r := range reqs {
		h.audit("forget", r.Controller, fmt.Sprintf("keys=%q all=%v requeue=%v dryRun=%v reason=%q", r.Keys, r.Filter != nil, r.Requeue, r.DryRun, r.Reason), r.User, err)
	}
	out := &ForgetOutput{Results: []api.ForgetResponse{}}
	var b strings.Builder
	for _, r := range resps {
		if len(r.Keys) > maxKeys {
			out.More = fmt.Sprintf("%d keys forgotten in all; the first %d of each controller are listed", r.Count, maxKeys)
			r.Keys = r.Keys[:maxKeys]
		}
		out.Results = append(out.Results, *r)
		verb := "forgot"
		if r.DryRun {
			verb = "would forget"
		}
		fmt.Fprintf(&b, "%s: %s %d keys (requeued: %v). %s\n", r.Controller, verb, r.Count, r.Requeued, r.Message)
	}
	if err != nil {
		// Some were forgotten (said above) and some failed: both are the answer.
		return nil, nil, h.toolError(fmt.Errorf("%s%w", b.String(), err))
	}
	bound(out)
	return textResult(b.String()), out, nil
}

// forgetRequests is in as v1/forget bodies, one per controller: keys go to
// the controller that tracks each, as `forget KEY...` finds it.
func (h *handlers) forgetRequests(ctx context.Context, req *mcp.CallToolRequest, in ForgetInput) ([]api.ForgetRequest, error) {
	reason := in.Reason
	if len(reason) > api.MaxReasonBytes {
		return nil, fmt.Errorf("reason: at most %d bytes", api.MaxReasonBytes)
	}
	base := api.ForgetRequest{Requeue: in.Requeue, DryRun: in.DryRun, Reason: reason, User: h.who(req)}
	switch {
	case in.All == (len(in.Keys) > 0):
		return nil, errors.New("forget needs keys, or all with controller (and state or query to narrow it), not both")
	case in.All && in.Controller == "":
		return nil, errors.New("controller: forget all acts on one controller: name it (controllers lists them)")
	case in.All:
		st, err := states(in.State)
		if err != nil {
			return nil, err
		}
		r := base
		r.Controller, r.Filter = in.Controller, &api.Filter{Q: in.Query, States: st}
		return []api.ForgetRequest{r}, nil
	case len(in.State) > 0 || in.Query != "":
		return nil, errors.New("state and query select keys with all: give keys, or all")
	}
	var reqs []api.ForgetRequest
	for _, k := range in.Keys {
		c := in.Controller
		if c == "" {
			var err error
			if c, err = h.cfg.Session.FindKey(ctx, k); err != nil {
				return nil, fmt.Errorf("%w (name the controller)", err)
			}
		}
		i := len(reqs)
		for j, r := range reqs {
			if r.Controller == c {
				i = j
			}
		}
		if i == len(reqs) {
			r := base
			r.Controller = c
			reqs = append(reqs, r)
		}
		reqs[i].Keys = append(reqs[i].Keys, k)
	}
	return reqs, nil
}

func (h *handlers) kick(ctx context.Context, req *mcp.CallToolRequest, in KickInput) (*mcp.CallToolResult, *KickOutput, error) {
	if !h.cfg.AllowWrite {
		return nil, nil, errReadOnly("kick", h.cfg.AllowWriteHow)
	}
	if len(in.Keys) == 0 {
		return nil, nil, errors.New("keys: kick needs the keys whose objects to patch, NAMESPACE/NAME")
	}
	if h.cfg.Kick == nil {
		return nil, nil, errors.New(h.cfg.NoKick)
	}
	out := &KickOutput{DryRun: in.DryRun, Kicked: []KickedItem{}}
	if in.DryRun {
		for _, k := range in.Keys {
			out.Kicked = append(out.Kicked, KickedItem{Key: k})
		}
		h.audit("kick", in.Controller, fmt.Sprintf("keys=%q dryRun=true", in.Keys), h.who(req), nil)
		bound(out)
		return textResult(fmt.Sprintf("Would patch %s=<now> on the objects behind %d keys: %s. Nothing was patched (dry_run).",
			kick.Annotation, len(in.Keys), strings.Join(in.Keys, ", "))), out, nil
	}
	results, err := h.cfg.Kick(ctx, in.Controller, in.Keys)
	h.audit("kick", in.Controller, fmt.Sprintf("keys=%q", in.Keys), h.who(req), err)
	var b strings.Builder
	for _, r := range results {
		out.Kicked = append(out.Kicked, KickedItem{Key: r.Key, Resource: r.Resource, At: r.At})
		fmt.Fprintf(&b, "%s %s kicked (%s=%s)\n", r.Resource, r.Key, kick.Annotation, r.At.UTC().Format(time.RFC3339Nano))
	}
	if err != nil {
		return nil, nil, h.toolError(fmt.Errorf("%s%w", b.String(), err))
	}
	b.WriteString("The controller reconciles them on the watch event, unless its watch has a generation-changed predicate (then nothing happens). The failure count is not reset.")
	bound(out)
	return textResult(b.String()), out, nil
}

// audit records a write call: the endpoint records a forget with its user
// too, and this line is the server's own record of who asked, for a kick as
// well, which no endpoint sees.
func (h *handlers) audit(tool, controller, what, who string, err error) {
	if h.cfg.Audit == nil {
		return
	}
	result := "ok"
	if err != nil {
		result = "error: " + capText(err.Error(), 300)
	}
	fmt.Fprintf(h.cfg.Audit, "audit: %s mcp %s controller=%q %s by %q: %s\n", time.Now().UTC().Format(time.RFC3339), tool, controller, capText(what, 500), who, result)
}
