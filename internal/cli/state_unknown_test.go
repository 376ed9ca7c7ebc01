package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestStateUnknownIsSaidAsLogMode: the states --state takes are said one
// way by the flag help, by the error for a misspelt state, and by the
// refusal of unknown where the keys come from an endpoint; unknown works
// with --from-logs.
func TestStateUnknownIsSaidAsLogMode(t *testing.T) {
	const list = "use backoff, scheduled, queued, running, failed or idle; unknown with --from-logs"
	const refusal = "--state: unknown is a state of log mode (--from-logs): an instrumented controller knows every key's state"
	srv, _ := endpoint(t, false)

	err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "--state", "backof")
	if want := `--state: "backof" is not a state; ` + list; err == nil || err.Error() != want {
		t.Errorf("get --state backof: %v, want %q", err, want)
	}
	// The real endpoint refuses unknown (400); the CLI says why.
	err = run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "--state", "backoff,unknown")
	if err == nil || err.Error() != refusal {
		t.Errorf("get --addr --state unknown: %v, want %q", err, refusal)
	}
	err = run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "--all", "--state", "unknown", "--yes")
	if err == nil || err.Error() != refusal {
		t.Errorf("forget --all --state unknown: %v, want %q", err, refusal)
	}

	// A log's key that failed and went quiet is unknown: --from-logs lists
	// it. default/bar fails, then the log goes on an hour (another key's
	// line) without its retry: past any delay, so bar is unknown. The lines
	// are controller-runtime's zap JSON "Reconciler error" (inspector/logs'
	// fixture from controller-runtime v0.6).
	log := filepath.Join(t.TempDir(), "controller.log")
	lines := `{"level":"error","ts":1617276479.081,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":"foo","request":"default/bar","error":"boom"}` + "\n" +
		`{"level":"error","ts":1617280079.081,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":"foo","request":"default/baz","error":"boom"}` + "\n"
	if err := os.WriteFile(log, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--from-logs", log, "--state", "unknown", "-o", "name"); err != nil {
		t.Errorf("get --from-logs --state unknown: %v", err)
	} else if got := strings.TrimSpace(out.String()); !strings.HasSuffix(got, "default/bar") || strings.Contains(got, "baz") {
		t.Errorf("get --from-logs --state unknown printed %q, want default/bar alone", out)
	}

	for _, c := range []newCommand{cli.NewGetCommand, cli.NewTopCommand} {
		var help bytes.Buffer
		cmd := c(genericclioptions.NewConfigFlags(true), genericiooptions.NewTestIOStreamsDiscard())
		cmd.SetOut(&help)
		cmd.SetArgs([]string{"--help"})
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(help.String(), "backoff, scheduled, queued, running, failed or idle; unknown with --from-logs") {
			t.Errorf("%s --help does not list unknown with --from-logs:\n%s", cmd.Name(), help.String())
		}
	}
}
