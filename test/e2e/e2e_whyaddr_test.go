//go:build e2e

package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
		if f := strings.Fields(l); len(f) > 3 && f[0] == name && f[1] == "InProgress" && f[3] == "naive" {
			listed = true
		}
	}
	if !listed {
		t.Errorf("why configmaps --addr does not list %s InProgress, controller naive", name)
	}
}
