package api_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestClientsLinkNoController checks the promise of this package: the client
// side (inspector, ui, cli's commands other than demo) depends on the wire
// types, not on the controller machinery. A client that linked
// controller-runtime would carry a manager and webhooks it never runs.
func TestClientsLinkNoController(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, pkg := range []string{"../../inspector", "../../internal/inspector/logs", "../../internal/inspector/kick", "../../internal/inspector/snapshot", "../../internal/mcpserver", "../../ui", ".", "../../internal/query"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for dep := range strings.SplitSeq(string(out), "\n") {
			if strings.HasPrefix(dep, "sigs.k8s.io/controller-runtime") ||
				dep == "github.com/kubectl-backoff/kubectl-backoff/instrument" {
				t.Errorf("%s depends on %s; clients must import only instrument/api", pkg, dep)
			}
		}
	}
}
