package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestFromLogsErrorsSayWhatItTakes: a newcomer's first --from-logs errors
// say what to give instead. A path that does not exist said only "open
// nope.log: no such file or directory"; a TARGET with no cluster said to
// pass --addr, which --from-logs refuses ("give one of them").
func TestFromLogsErrorsSayWhatItTakes(t *testing.T) {
	t.Setenv("KUBECONFIG", "/nonexistent")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	for _, tt := range []struct {
		newCmd newCommand
		args   []string
		want   string
	}{
		{cli.NewGetCommand, []string{"--from-logs", "/nonexistent.log"},
			"--from-logs: open /nonexistent.log: no such file or directory; give a saved log's path, - to read stdin, or a TARGET before --from-logs to stream its pods' logs (deploy/NAME --from-logs)"},
		{cli.NewDescribeCommand, []string{"--from-logs", "/nonexistent.log", "demo/x"},
			"--from-logs: open /nonexistent.log: no such file or directory; give a saved log's path"},
		{cli.NewGetCommand, []string{"deploy/op", "--from-logs"},
			"no cluster configured: KUBECONFIG=/nonexistent names no file that exists; --from-logs with a TARGET streams its pods' logs from the API server: pass --kubeconfig/--context, or save the log and give its path: --from-logs FILE"},
	} {
		err := run(tt.newCmd, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "--addr") {
			t.Errorf("%v: error = %v, want one beginning %q, and no --addr (which --from-logs refuses)", tt.args, err, tt.want)
		}
	}
}
