package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// forget --dry-run counted the keys and said nothing of those failing on
// a permanent error: a forget of wellbehaved's terminal keys read as a
// fix. The preview says how many of them fail on one, in the words of the
// TUI's dialog (explain.PermanentAmong), under its count; outage's keys,
// failing on a 503, add nothing.
func TestForgetDryRunSaysThePermanentErrors(t *testing.T) {
	srv := demoWorld(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--controller", "wellbehaved", "--all", "--state", "failed"},
			"All of them fail on a permanent error: forgetting will not help them; their next attempt fails the same way unless their object changed."},
		{[]string{"--controller", "wellbehaved", "--all", "--state", "failed", "--requeue"},
			"All of them fail on a permanent error: a retry will fail them the same way unless their object changed."},
		{[]string{"--controller", "outage", "--all", "--state", "backoff"}, ""},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			if err := run(cli.NewForgetCommand, streams, append([]string{"--addr", srv.URL, "--dry-run"}, tt.args...)...); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if !strings.HasPrefix(lines[0], "would forget") {
				t.Fatalf("first line %q, want the would-forget count:\n%s", lines[0], out)
			}
			if tt.want == "" {
				if strings.Contains(out.String(), "permanent") {
					t.Errorf("no key fails on a permanent error, the preview says:\n%s", out)
				}
				return
			}
			if len(lines) < 2 || lines[1] != tt.want {
				t.Errorf("the preview:\n%s\nwant under its count:\n%s", out, tt.want)
			}
		})
	}
}

// A forget done (not a preview) of keys failing on a permanent error said
// nothing of it: the TUI's dialog warns, the CLI read as a fix. It warns on
// stderr, one line as kubectl's warnings, and forgets all the same (a script
// is not stopped, as kubectl delete does not ask); stdout keeps what -o
// promises. outage's keys, failing on a 503, are not warned of.
func TestForgetWarnsOfThePermanentErrors(t *testing.T) {
	srv := demoWorld(t)
	for _, tt := range []struct {
		args []string
		warn string
	}{
		{[]string{"--controller", "wellbehaved", "--all", "--state", "failed", "--yes"},
			"Warning: All of them fail on a permanent error: forgetting will not help them; their next attempt fails the same way unless their object changed.\n"},
		{[]string{"--controller", "outage", "--all", "--state", "backoff", "--yes", "-o", "json"}, ""},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			streams, _, out, errOut := genericiooptions.NewTestIOStreams()
			if err := run(cli.NewForgetCommand, streams, append([]string{"--addr", srv.URL}, tt.args...)...); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "forgot") && !strings.Contains(out.String(), `"count"`) {
				t.Fatalf("nothing forgotten:\n%s", out)
			}
			if strings.Contains(out.String(), "permanent error") {
				t.Errorf("the warning went to stdout:\n%s", out)
			}
			if got := errOut.String(); tt.warn == "" && strings.Contains(got, "Warning") || tt.warn != "" && !strings.Contains(got, tt.warn) {
				t.Errorf("stderr:\n%s\nwant the warning %q", got, tt.warn)
			}
		})
	}
}
