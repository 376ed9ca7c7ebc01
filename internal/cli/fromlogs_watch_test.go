package cli_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestWatchFromLogsRefused: get -w and describe -w follow a FILE
// (TestGetWatchFollowsALogFile), but read a pipe or a TARGET's logs to
// their end before printing, and would print nothing while a pipe never
// ends (tail -f | … -): they refuse at once, naming both flags and what
// follows that log (top --from-logs). Each runs under a deadline: the old
// code hung.
func TestWatchFromLogsRefused(t *testing.T) {
	for _, tt := range []struct {
		name   string
		newCmd newCommand
		args   []string
		follow string
	}{
		{"get - -w", cli.NewGetCommand, []string{"--from-logs", "-", "--watch"}, "| kubectl backoff top --from-logs -"},
		{"get TARGET --from-logs -w", cli.NewGetCommand, []string{"deploy/ctrl", "--from-logs", "-w"}, "kubectl backoff top deployment/ctrl --from-logs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// stdin never ends, as tail -f's: a read of it would block.
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			defer pr.Close()
			streams := genericiooptions.IOStreams{In: pr, Out: &strings.Builder{}, ErrOut: &strings.Builder{}}
			done := make(chan error, 1)
			go func() { done <- run(tt.newCmd, streams, tt.args...) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "--watch (-w) does not follow --from-logs") || !strings.Contains(err.Error(), tt.follow) {
					t.Errorf("err = %v, want it to name -w and --from-logs and say %q", err, tt.follow)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still running after 10s: -w with --from-logs hangs")
			}
		})
	}
}

// TestWatchHelpSaysAFileIsFollowed: -w's help says what the commands do
// with --from-logs (a FILE followed, a pipe or a TARGET refused), not the
// older "not with --from-logs", which sent a reader of a saved log to top.
func TestWatchHelpSaysAFileIsFollowed(t *testing.T) {
	for name, newCmd := range map[string]newCommand{"get": cli.NewGetCommand, "describe": cli.NewDescribeCommand} {
		usage := newCmd(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard()).Flags().Lookup("watch").Usage
		if !strings.Contains(usage, "a log file is followed") || strings.Contains(usage, "not with --from-logs") {
			t.Errorf("%s --watch's help = %q, want it to say a --from-logs FILE is followed", name, usage)
		}
	}
}
