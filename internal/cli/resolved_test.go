package cli_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// A key whose reconcile succeeded after an error shows that error marked
// resolved: the list says what the key did, not only what it last hit.
func TestGetMarksResolvedErrors(t *testing.T) {
	srv, reconcile, clk := widgets(t, false)
	reconcile("default/healed", errors.New("the object has been modified"))
	clk.Step(time.Second)
	reconcile("default/healed", nil)
	reconcile("default/broken", errors.New("connection refused"))
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--sort", "key"); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 1 {
			rows[f[1]] = l
		}
	}
	if l := rows["default/healed"]; !strings.Contains(l, "✓ the object has been modified") {
		t.Errorf("the healed key's row %q, want its error marked resolved", l)
	}
	if l := rows["default/broken"]; strings.Contains(l, "✓") || !strings.Contains(l, "connection refused") {
		t.Errorf("the failing key's row %q, want its error unmarked", l)
	}
}
