package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestFromLogsWords: what get, describe and top say around --from-logs
// names the log, not an endpoint, and the forms the README gives.
func TestFromLogsWords(t *testing.T) {
	// controller-runtime logs a core-group For() as controllerGroup "".
	file := filepath.Join(t.TempDir(), "ctrl.log")
	line := `{"level":"error","ts":"2026-12-06T10:08:51Z","msg":"Reconciler error","controller":"naive","controllerGroup":"","controllerKind":"ConfigMap","ConfigMap":{"name":"naive-00002","namespace":"demo"},"namespace":"demo","name":"naive-00002","reconcileID":"152cc0de","error":"spec.storageClass must be set"}` + "\n"
	if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	describe := func(args ...string) (string, error) {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		cmd := cli.NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return out.String(), err
	}
	t.Run("an unknown --controller: the log has", func(t *testing.T) {
		_, err := describe("--from-logs", file, "--controller", "nope")
		if err == nil || !strings.Contains(err.Error(), `no controller "nope"; the log has naive`) {
			t.Errorf("err = %v, want the log's controllers", err)
		}
	})
	t.Run("a core-group kind has no trailing space", func(t *testing.T) {
		out, err := describe("--from-logs", file, "demo/naive-00002")
		if err != nil || !strings.Contains(out, "Controller:  naive (ConfigMap)\n") {
			t.Errorf("err %v, output:\n%s", err, out)
		}
	})
	t.Run("--since with a file: the README's form", func(t *testing.T) {
		err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--from-logs", file, "--since", "2h")
		if err == nil || !strings.Contains(err.Error(), "kubectl backoff get deploy/NAME --from-logs --since 2h") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("help examples", func(t *testing.T) {
		streams := genericiooptions.NewTestIOStreamsDiscard()
		for _, c := range []struct {
			name string
			new  newCommand
		}{{"get", cli.NewGetCommand}, {"describe", cli.NewDescribeCommand}, {"top", cli.NewTopCommand}} {
			if ex := c.new(genericclioptions.NewConfigFlags(false), streams).Example; !strings.Contains(ex, "--from-logs") {
				t.Errorf("%s's examples give no --from-logs:\n%s", c.name, ex)
			}
		}
	})
}
