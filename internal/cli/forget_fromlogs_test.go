package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestForgetFromLogsSaysKick: forget reaches a queue, which a log has not;
// what a reader of a log wants of it, a retry now, is kick --from-logs.
// The error says that first, and not the list of every command with
// --from-logs (none of which retries anything).
func TestForgetFromLogsSaysKick(t *testing.T) {
	root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
	root.SetArgs([]string{"forget", "--from-logs", "demo.log", "demo/naive-00001"})
	err := root.Execute()
	if err == nil {
		t.Fatal("forget --from-logs: no error")
	}
	msg := err.Error()
	want := "unknown flag: --from-logs; forget cannot work from a log: it resets a key in the controller's queue, which a log cannot reach. " +
		"`kubectl backoff kick --from-logs LOG KEY...` retries the objects now"
	if !strings.HasPrefix(msg, want) {
		t.Errorf("error\n%s\nwant it to start\n%s", msg, want)
	}
	for _, not := range []string{"other commands do", "describe --from-logs", "mcp --from-logs"} {
		if strings.Contains(msg, not) {
			t.Errorf("error\n%s\nwant no %q", msg, not)
		}
	}
}
