package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestForgetFindsTheController: what forget --help says of --controller is
// what forget does: without it, each KEY goes to the controller tracking
// it, across controllers; a KEY tracked by several asks for it.
func TestForgetFindsTheController(t *testing.T) {
	addr := diagnosisEndpoint(t) // demo/n-1 in naive, demo/o-2 in outage, demo/o-1 in both
	c, err := inspector.NewClient(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	failuresOf := keyFailures(t, c)
	help := cli.NewForgetCommand(nil, genericiooptions.NewTestIOStreamsDiscard()).Flags().Lookup("controller").Usage
	if want := "only needed when a KEY is tracked by several controllers"; !strings.Contains(help, want) {
		t.Errorf("forget --controller help %q, want it to say %q", help, want)
	}

	err = run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", addr, "demo/o-1")
	if err == nil || !strings.HasSuffix(err.Error(), "name one with --controller") {
		t.Errorf("forget demo/o-1 (in two controllers): error = %v, want one asking for --controller", err)
	}
	if failuresOf("naive", "demo/o-1") != 6 || failuresOf("outage", "demo/o-1") != 3 {
		t.Fatal("a refused forget changed demo/o-1")
	}

	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", addr, "demo/n-1", "demo/o-2"); err != nil {
		t.Fatalf("forget demo/n-1 demo/o-2 without --controller: %v", err)
	}
	if failuresOf("naive", "demo/n-1") != 0 || failuresOf("outage", "demo/o-2") != 0 {
		t.Errorf("forget demo/n-1 demo/o-2 printed %q, but left failures: want each reset in its controller", out)
	}
	if failuresOf("outage", "demo/o-3") != 3 {
		t.Error("forget of two keys reset a third")
	}
}
