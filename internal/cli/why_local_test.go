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

// TestWhyFileAndAddrNeedNoCluster: `why -f FILE --addr ADDR` without a
// kubeconfig answers from the file's object and the endpoint's key (it
// said "no cluster configured"), and says the object is the file's, not
// the API server's, and that its Events were not read (it said "none"),
// with no "generation 0" (a ConfigMap has none);
// -f alone without a cluster names the flags that make
// it need none, and TYPE/NAME with --addr (or --from-logs) names -f; --watch, which follows the cluster's object, is refused
// naming itself.
func TestWhyFileAndAddrNeedNoCluster(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir()) // no ~/.kube/config

	ep := cli.FailingEndpoint(t, nil)

	file := filepath.Join(t.TempDir(), "cm.yaml")
	if err := os.WriteFile(file, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: down-1\n  namespace: widgets\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	why := func(args ...string) (string, error) {
		var out bytes.Buffer
		streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &out}
		cmd := cli.NewWhyCommand(genericclioptions.NewConfigFlags(true), streams)
		cmd.SetArgs(args)
		cmd.SetOut(&out)
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		return out.String(), err
	}

	out, err := why("-f", file, "--addr", ep.URL)
	if err != nil {
		t.Fatalf("why -f FILE --addr ADDR without a cluster: %v", err)
	}
	for _, want := range []string{
		"read from " + file + ", not the API server",
		"Key:            widgets/down-1 (controller configmap)",
		"eu region unavailable",
		"Events:\n  not read",                 // not "none": no cluster was asked for them
		"Change:      the kind has no status", // not "generation 0": a ConfigMap has none
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the answer lacks %q:\n%s", want, out)
		}
	}

	if _, err := why("-f", file); err == nil || !strings.Contains(err.Error(), "no cluster configured") || !strings.Contains(err.Error(), "--addr") || !strings.Contains(err.Error(), "--from-logs") {
		t.Errorf("why -f FILE without a cluster: error %v, want it to name --addr and --from-logs", err)
	}
	// TYPE/NAME with the backoff's source named: only the object needs the
	// cluster, and -f FILE is what makes it need none.
	if _, err := why("configmap/down-1", "--addr", ep.URL); err == nil || !strings.Contains(err.Error(), "no cluster configured") || !strings.Contains(err.Error(), "why -f obj.yaml") {
		t.Errorf("why TYPE/NAME --addr ADDR without a cluster: error %v, want it to name -f FILE", err)
	}
	if _, err := why("-f", file, "--addr", ep.URL, "-w"); err == nil || !strings.Contains(err.Error(), "drop --watch") {
		t.Errorf("why -f FILE --addr ADDR -w without a cluster: error %v, want it to say drop --watch", err)
	}
}
