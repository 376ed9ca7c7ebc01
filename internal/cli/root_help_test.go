package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestRootHelpStartsWithTheDemo: the root's help tells a newcomer where to
// start: the demo, and how the other commands reach it.
func TestRootHelpStartsWithTheDemo(t *testing.T) {
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	root := cli.NewRootCommand(streams)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Start with `kubectl backoff demo`", "kubectl backoff top --addr 127.0.0.1:8082"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("kubectl backoff --help lacks %q:\n%s", want, out)
		}
	}
}
