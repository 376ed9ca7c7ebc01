package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompts are the two walks an assistant is asked for most: from one
// object to what to run next, and from an incident to the keys it hit.
func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "debug_stuck_object",
		Title:       "Why isn't this object reconciled?",
		Description: "From an object to its controller's backoff for it and the next command: why, then key, then what to run.",
		Arguments: []*mcp.PromptArgument{
			{Name: "object", Description: "the object as TYPE/NAME, e.g. certificate/web-tls", Required: true},
			{Name: "namespace", Description: "its namespace (default: the kubeconfig's)"},
		},
	}, debugStuckObject)
	s.AddPrompt(&mcp.Prompt{
		Name:        "incident",
		Title:       "What are the controllers failing on?",
		Description: "From the error groups to the worst controller to its keys: what fails, how widely, since when, and what to do.",
		Arguments: []*mcp.PromptArgument{
			{Name: "controller", Description: "only this controller (default: all)"},
		},
	}, incident)
}

func debugStuckObject(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	obj, ns := req.Params.Arguments["object"], req.Params.Arguments["namespace"]
	if obj == "" {
		return nil, fmt.Errorf("object: give the object as TYPE/NAME, e.g. certificate/web-tls")
	}
	where := ""
	if ns != "" {
		where = fmt.Sprintf(" in namespace %q", ns)
	}
	return userPrompt("Debug a stuck object", fmt.Sprintf(`The object %q%s does not seem to take my change. Find out why, with the kubectl-backoff tools:
1. Call why with object %q%s. Read its verdict, the controller that owns the status, the backoff for the object's key, and the chain's blocker.
2. If a blocker other than the object is named, it is what must change: say which object and why it is not ready.
3. Call key with the key and controller why names (NAMESPACE/NAME) for the attempt history: how many failures in a row, the last error, the next retry and the limiter that chose it, and why each attempt ran.
4. Answer in a few sentences: what is wrong, when the controller retries next on its own, and the next command from why's or key's next steps (do not run forget or kick unless I ask).`,
		obj, where, obj, nsArg(ns))), nil
}

func incident(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	c := req.Params.Arguments["controller"]
	scope := "every controller"
	if c != "" {
		scope = fmt.Sprintf("controller %q", c)
	}
	return userPrompt("Incident triage", fmt.Sprintf(`Something is failing across %s. Triage it with the kubectl-backoff tools:
1. Call error_groups%s: the failing keys' errors, grouped, largest first. Name the largest groups, their class (transient or permanent), and since when.
2. Call controllers: pick the worst controller (most keys in backoff or failed, or its diagnosis), and say its diagnosis.
3. Call keys for that controller with state backoff and sort failures (limit 10): the keys hit hardest and when each retries.
4. Answer: what is failing, how widely, whether it recovers on its own (the retries to come), and what to do. Do not run forget or kick unless I ask.`,
		scope, controllerArg(c))), nil
}

func userPrompt(desc, text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Description: desc, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

func nsArg(ns string) string {
	if ns == "" {
		return ""
	}
	return fmt.Sprintf(" and namespace %q", ns)
}

func controllerArg(c string) string {
	if c == "" {
		return ""
	}
	return fmt.Sprintf(" with controller %q", c)
}
