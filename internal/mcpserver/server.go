package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// Config is what a server answers from, and what it may do.
type Config struct {
	// Session is the source every tool reads: an endpoint, a controller
	// through port-forward, a log or a snapshot, attached as the CLI
	// attaches. Required.
	Session *inspector.Session
	// Objects reads the object behind a key for the key tool; nil when there
	// is no cluster (--addr, a saved log), and the answer says so.
	Objects *describe.ObjectReader
	// Why answers the why tool for an object given as TYPE/NAME in
	// namespace ("" for the kubeconfig's); nil refuses the tool with
	// NoWhy's words.
	Why func(ctx context.Context, object, namespace string) (*why.Answer, error)
	// NoWhy is why Why is nil, e.g. "why reads the object from the API
	// server; pass --kubeconfig/--context or set KUBECONFIG".
	NoWhy string
	// Kick patches the objects behind keys of controller; nil refuses kick
	// with NoKick's words.
	Kick func(ctx context.Context, controller string, keys []string) ([]kick.Result, error)
	// NoKick is why Kick is nil.
	NoKick string
	// AllowWrite enables forget and kick. Off, they are listed, so that an
	// assistant can say how to enable them, and refused with AllowWriteHow.
	AllowWrite bool
	// AllowWriteHow is how the user allows writes, in the words of the
	// command that started the server ("restart it with `kubectl backoff
	// mcp --allow-write`"); empty says only that they are refused.
	AllowWriteHow string
	// FromLogs says Session reads a controller's log: error_groups then
	// also groups the keys log mode calls unknown (quiet after an error,
	// their retry's outcome not logged), as `get --group-by error` does.
	FromLogs bool
	// User is who the server runs as (the kubeconfig's user, else $USER):
	// forgets are recorded as "CLIENT (via mcp) for USER".
	User string
	// Version is the server's version, as `kubectl backoff version` says it.
	Version string
	// Attach are the shell words the suggested commands carry to reach the
	// same source (the command's flags that attached); empty for a log.
	Attach string
	// Audit hears one line per write call (forget, kick): when, what, who,
	// and the outcome. The command passes stderr, which a stdio client keeps
	// as the server's log. Nil records nothing here (the endpoint still
	// records a forget with its user).
	Audit io.Writer
	// ExplainError says a transport error in the CLI's words (a refused
	// connection with the address and what to try); nil keeps it.
	ExplainError func(error) error
}

// New returns the MCP server over cfg's source: its tools, and its prompts.
func New(cfg Config) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "kubectl-backoff", Title: "kubectl backoff", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{}})
	h := &handlers{cfg: cfg}
	addReadTools(s, h)
	addWhyTool(s, h)
	addWriteTools(s, h)
	addPrompts(s)
	return s
}

// instructions is what a client hands its model about the server as a whole.
const instructions = `kubectl-backoff reads controllers' per-key retry state: for each key (an object a controller reconciles), its state (backoff, scheduled, queued, running, failed, idle), consecutive failures, the next retry and the limiter that chose it, and the last errors.
Start with controllers (a diagnosis line per controller), then error_groups (what the failing keys fail with), keys (filter by state, controller, error, query), key (one key with its history and diagnosis), or why (from an object TYPE/NAME: verdict, chain, blocker, backoff, next step).
Results are capped: a result that left items out says how many and how to ask for more (offset/limit). forget and kick change things and are refused unless the server was started allowing writes (the refusal says how).`

// handlers holds the config the tools share.
type handlers struct {
	cfg Config
}

// toolError is err as a tool's answer: the CLI's wording, escaped, in one
// message. The SDK makes it a result with IsError, which a model reads,
// rather than a protocol error, which it does not.
func (h *handlers) toolError(err error) error {
	if err == nil {
		return nil
	}
	err = inputError(err)
	if h.cfg.ExplainError != nil {
		err = h.cfg.ExplainError(err)
	}
	return errors.New(capText(err.Error(), maxMessage))
}

// inputError says an endpoint's or the engine's complaint about a parameter
// under the tool input's name, as the CLI says it under its flag's.
func inputError(err error) error {
	if ae, ok := errors.AsType[*inspector.APIError](err); ok {
		switch ae.Code {
		case http.StatusBadRequest:
			if name, ok := inputNames[ae.Field]; ok {
				return fmt.Errorf("%s: %s", name, ae.Problem)
			}
			return errors.New(ae.Message)
		case http.StatusNotFound:
			return errors.New(ae.Message)
		}
		return err
	}
	if qe, ok := errors.AsType[*query.Error](err); ok {
		if name, ok := inputNames[qe.Field]; ok {
			return fmt.Errorf("%s: %s", name, cmp.Or(qe.Problem, qe.Msg))
		}
	}
	return err
}

// inputNames maps the field an endpoint names to the tool input that sets it.
var inputNames = map[string]string{
	"controller": "controller",
	"q":          "query",
	"error":      "error",
	"state":      "state",
	"sort":       "sort",
	"limit":      "limit",
	"offset":     "offset",
	"key":        "key",
	"keys":       "keys",
	"reason":     "reason",
}

// who is who a write call says is asking: the client's name, and the user
// the server runs as. The endpoint records it (marked unverified unless it
// authenticated the request itself), as it records the CLI's forget.
func (h *handlers) who(req *mcp.CallToolRequest) string {
	client := "an MCP client"
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
			client = p.ClientInfo.Name
		}
	}
	who := capText(client, 64) + " (via kubectl backoff mcp)"
	if h.cfg.User != "" {
		who += " for " + h.cfg.User
	}
	return who
}
