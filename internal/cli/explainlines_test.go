package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestExplainLines shows the reading of every line of one fixture (a real
// Longhorn manager log, longhorn/longhorn#193: two drops read, two "fail to
// sync" lines not read, and why), on stderr, beside get's table on stdout;
// without --from-logs the flag is refused, naming both.
func TestExplainLines(t *testing.T) {
	log := filepath.Join("..", "inspector", "logs", "testdata", "wild", "longhorn-193.log")
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := cli.NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", log, "--explain-lines"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("get: %v\n%s", err, errOut)
	}
	want := []string{
		`--explain-lines: line 1: looked like a failure, not read: says "fail to sync" but not that it will retry, requeue or re-add, nor that it gave up`,
		`--explain-lines: line 2: generic (work-queue idiom): controller "Longhorn volume", key "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4": gave up: forgotten and not requeued, failed until the object changes, time unknown; read as the work-queue idiom: error or warning level, "fail to sync" … "Dropping", one key; limiter assumed client-go's default`,
		`--explain-lines: line 3: looked like a failure, not read: says "fail to sync" but not that it will retry, requeue or re-add, nor that it gave up`,
		`--explain-lines: line 4: generic (work-queue idiom): controller "Longhorn replica", key "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8": gave up: forgotten and not requeued, failed until the object changes, time unknown; read as the work-queue idiom: error or warning level, "fail to sync" … "Dropping", one key; limiter assumed client-go's default`,
	}
	var got []string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.HasPrefix(l, "--explain-lines:") {
			got = append(got, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant the lines:\n%s", errOut, strings.Join(want, "\n"))
	}
	if !strings.Contains(out.String(), "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4") {
		t.Errorf("stdout lacks the keys' table:\n%s", out)
	}

	cmd = cli.NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--addr", "127.0.0.1:1", "--explain-lines"})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "--explain-lines") || !strings.Contains(err.Error(), "--from-logs") {
		t.Errorf("--explain-lines without --from-logs: %v; want a refusal naming both", err)
	}
}
