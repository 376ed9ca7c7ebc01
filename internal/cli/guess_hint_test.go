package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestGroupsSaysGetGroupBy: `kubectl backoff groups` (or errors), guessed
// by a user who wants the keys' errors grouped, fails naming the command
// to run, with the user's arguments, as `retry` (top's r) names forget
// --requeue, or kick for a log; a near miss of get (list) gets
// cobra's suggestion; neither shows in the root's help.
func TestGroupsSaysGetGroupBy(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"groups"}, `unknown command "groups" for "kubectl backoff": the keys' last errors are grouped by get; run: kubectl backoff get --group-by error`},
		{[]string{"errors", "--addr", "127.0.0.1:8082", "-q", "503 x"}, `unknown command "errors" for "kubectl backoff": the keys' last errors are grouped by get; run: kubectl backoff get --group-by error --addr 127.0.0.1:8082 -q '503 x'`},
		{[]string{"list"}, "Did you mean this?\n\tget"},
		// top's r is "retry now": a user guesses the command after it.
		{[]string{"retry", "--addr", "127.0.0.1:8082", "demo/naive-00001"}, `unknown command "retry" for "kubectl backoff": forget --requeue resets a key's backoff and retries it now (kick, for a controller read from its log); run: kubectl backoff forget --requeue --addr 127.0.0.1:8082 demo/naive-00001`},
		{[]string{"retry", "--from-logs", "demo/naive-00001"}, `run: kubectl backoff kick --from-logs demo/naive-00001`},
		{[]string{"reset", "demo/naive-00001"}, `run: kubectl backoff forget demo/naive-00001`},
	} {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		root := cli.NewRootCommand(streams)
		root.SetArgs(tt.args)
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one containing %q", tt.args, err, tt.want)
		}
		if out.Len() != 0 {
			t.Errorf("%v printed %q", tt.args, out)
		}
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	root := cli.NewRootCommand(streams)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\n  groups ") || strings.Contains(out.String(), "\n  errors ") || strings.Contains(out.String(), "\n  retry ") {
		t.Errorf("the root's help lists the hint commands:\n%s", out)
	}
}
