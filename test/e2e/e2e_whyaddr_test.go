//go:build e2e

package e2e

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// testWhyAddr is issue 48's `go run` operator: an instrumented controller
// reached at --addr, reconciling a kind with no status (the demo's naive
// controller and its ConfigMaps, in the real API server). `why
// configmap/NAME --addr` answers from the endpoint's key, not "a ConfigMap
// has no status, and no controller reconciles it".
func testWhyAddr(ctx context.Context, t *testing.T, kc *kubectl, admin, endpoint string) {
	s, err := inspector.Direct(endpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var key string
	eventually(t, time.Minute, "a naive key in backoff", func(ctx context.Context) error {
		l, err := s.Keys(ctx, inspector.KeyQuery{Controller: "naive", States: []api.State{api.StateBackoff}, Limit: 1})
		if err != nil {
			return err
		}
		if len(l.Items) == 0 {
			return errors.New("none yet")
		}
		key = l.Items[0].Key.Key
		return nil
	})
	ns, name, _ := strings.Cut(key, "/")
	out := kc.ok(t, admin, "backoff", "why", "configmap/"+name, "-n", ns, "--addr", endpoint)
	t.Logf("why configmap/%s --addr:\n%s", name, out)
	for _, want := range []string{`controller "naive" is failing on it`, key} {
		if !strings.Contains(out, want) {
			t.Errorf("why lacks %q", want)
		}
	}
	if strings.Contains(out, "no controller reconciles it") {
		t.Errorf("why says no controller reconciles a ConfigMap the endpoint is failing on")
	}
	// The list answers from the same endpoint: it ignored --addr and said
	// "all N configmaps are Current" of the key failing above.
	out = kc.ok(t, admin, "backoff", "why", "configmaps", "-n", ns, "--addr", endpoint)
	t.Logf("why configmaps --addr:\n%s", out)
	var listed bool
	for l := range strings.SplitSeq(out, "\n") {
		// Failed: a ConfigMap has no status, and naive's error is
		// permanent (an object with no status, failing on an error no
		// retry mends, is Failed; on a transient one InProgress).
		if f := strings.Fields(l); len(f) > 3 && f[0] == name && f[1] == "Failed" && f[3] == "naive" {
			listed = true
		}
	}
	if !listed {
		t.Errorf("why configmaps --addr does not list %s Failed, controller naive", name)
	}
	// The MCP server started with --addr answers its why tool from that
	// endpoint too: it said "Current: a ConfigMap has no status, and no
	// controller was found", and told the assistant to give --addr.
	cmd := exec.CommandContext(ctx, "kubectl", "backoff", "mcp", "--addr", endpoint)
	cmd.Env = kc.env(admin)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("kubectl backoff mcp --addr: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "why", Arguments: map[string]any{"object": "configmap/" + name, "namespace": ns}})
	if err != nil {
		t.Fatalf("mcp why: %v", err)
	}
	var said strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			said.WriteString(tc.Text)
		}
	}
	t.Logf("mcp why configmap/%s:\n%s", name, said.String())
	if res.IsError || !strings.Contains(said.String(), `controller "naive" is failing on it`) {
		t.Errorf("mcp --addr's why does not answer from the endpoint")
	}
}
