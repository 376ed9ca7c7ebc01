package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestWhyFromLogsAsElsewhere: why's --from-logs is written as every
// command's is: a FILE spaced or with =, before or after the object, - for
// stdin, or alone (the controller's pods' log: here, without a cluster,
// the answer is that a cluster is needed, not "flag needs an argument").
func TestWhyFromLogsAsElsewhere(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir()) // no ~/.kube/config
	dir := t.TempDir()
	obj, log := filepath.Join(dir, "cm.yaml"), filepath.Join(dir, "ctl.log")
	const line = `{"level":"error","ts":"2026-12-06T10:09:31Z","msg":"Reconciler error","controller":"widget","namespace":"widgets","name":"down-1","reconcileID":"a1","error":"eu region unavailable"}` + "\n"
	if err := os.WriteFile(obj, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: down-1\n  namespace: widgets\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		root := cli.NewRootCommand(genericiooptions.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut})
		root.SetArgs(args)
		err := root.ExecuteContext(context.Background())
		return out.String(), err
	}
	for _, args := range [][]string{
		{"why", "-f", obj, "--from-logs", log},
		{"why", "--from-logs", log, "-f", obj},
		{"why", "-f", obj, "--from-logs=" + log},
		{"why", "-f", obj, "--from-logs", "-"},
	} {
		out, err := run(line, args...)
		if err != nil || !strings.Contains(out, `controller "widget"`) || !strings.Contains(out, "eu region unavailable") {
			t.Errorf("%s: error %v, answer:\n%s\nwant the log's controller and error", strings.Join(args, " "), err, out)
		}
	}
	_, err := run("", "why", "-f", obj, "--from-logs")
	if err == nil || strings.Contains(err.Error(), "needs an argument") || !strings.Contains(err.Error(), "no cluster configured") {
		t.Errorf("why -f FILE --from-logs alone: %v; want the pods' log, which needs a cluster", err)
	}
}
