package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// WhyInput names an object, as `kubectl backoff why TYPE/NAME -n NS`.
type WhyInput struct {
	Object    string `json:"object" jsonschema:"the object as TYPE/NAME, as kubectl names it: certificate/web-tls, deploy/api, kustomizations.kustomize.toolkit.fluxcd.io/apps"`
	Namespace string `json:"namespace,omitempty" jsonschema:"its namespace (default: the kubeconfig's)"`
}

// WhyOutput is why's answer: the verdict, who changed it and who owns its
// status, the controller's backoff for its key, the chain it waits for and
// its blocker, the summary and the next steps.
type WhyOutput struct {
	why.Answer
}

func addWhyTool(s *mcp.Server, h *handlers) {
	mcp.AddTool(s, &mcp.Tool{Name: "why", OutputSchema: outputSchema[WhyOutput](),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "Start from an object (TYPE/NAME): has its latest change been reconciled, and if not, what its controller does about it — the verdict (kstatus and more), the status manager and its pods, the controller's backoff for the key, the chain of what it waits for with the blocker, and the next step (`kubectl backoff why`). Needs a cluster."}, h.why)
}

func (h *handlers) why(ctx context.Context, _ *mcp.CallToolRequest, in WhyInput) (*mcp.CallToolResult, *WhyOutput, error) {
	typ, name, ok := strings.Cut(strings.TrimSpace(in.Object), "/")
	if !ok || typ == "" || name == "" {
		return nil, nil, fmt.Errorf("object %q: give TYPE/NAME, e.g. certificate/web-tls (as kubectl backoff why takes it)", capText(in.Object, 200))
	}
	if h.cfg.Why == nil {
		return nil, nil, errors.New(h.cfg.NoWhy)
	}
	a, err := h.cfg.Why(ctx, in.Object, in.Namespace)
	if err != nil {
		// why's own words, as the why command says them: ExplainError
		// speaks of the controller's endpoint, and why failed on the API server.
		return nil, nil, errors.New(capText(err.Error(), maxMessage))
	}
	out := &WhyOutput{Answer: *a}
	bound(out)
	return textResult(whySummary(&out.Answer)), out, nil
}

// whySummary is why's answer in the lines a model reads first, as why's
// printer leads with them.
func whySummary(a *why.Answer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", a.Summary)
	if g := a.GenerationLine(); g != "" {
		fmt.Fprintf(&b, "Change: %s\n", g)
	}
	fmt.Fprintf(&b, "Controller: %s\n", a.ControllerName())
	if bo := a.BackoffBrief(); bo != "" {
		fmt.Fprintf(&b, "Backoff: %s\n", bo)
	}
	if bl := a.BlockerLine(); bl != "" {
		fmt.Fprintf(&b, "Blocker: %s\n", bl)
	}
	for _, n := range a.Next {
		fmt.Fprintf(&b, "Next: %s\n", n)
	}
	return b.String()
}
