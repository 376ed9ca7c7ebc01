package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestCountsSayWhatTheyCount: a key read off a log whose count restarted
// within it (kube-controller-manager's endpointslicemirroring controller on
// lab/legacy-db, batch14/1440: two failures 16s apart, none of its limiter's
// delays, the second read as a new streak) has two numbers, and why and
// describe say which is which:
// the failures since the count restarted, and all the log holds. They said
// "1 failure logged since 06:33:17, 2 in all", which reads as a
// contradiction.
func TestCountsSayWhatTheyCount(t *testing.T) {
	noCluster(t)
	const log = "../inspector/logs/testdata/batch14/1440-kube-controller-manager-klog-node-ipam-cidr-exhausted-pvc-protection-name-slash-namespace-pv-protection.log"
	obj := writeManifest(t, "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: legacy-db\n  namespace: lab\n")
	const since = "1 failure since the count restarted at 06:33:17, 2 logged in all"
	const reason = "(that failure came too long after the one before to be its retry, so it is read as following a success the log does not show)"
	for _, tt := range []struct {
		name string
		new  func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) *cobra.Command
		args []string
		want string
	}{
		{"why", cli.NewWhyCommand, []string{"-f", obj, "--from-logs", log}, "  Failures:       " + since + " " + reason + "\n"},
		{"describe", cli.NewDescribeCommand, []string{"--from-logs", log, "lab/legacy-db"}, "  Failures:       " + since + ", over 2 reconciles " + reason + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &bytes.Buffer{}}
			cmd := tt.new(genericclioptions.NewConfigFlags(true), streams)
			cmd.SetArgs(tt.args)
			if err := cmd.Execute(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.name, err, out.String())
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("%s lacks %q:\n%s", tt.name, tt.want, out.String())
			}
			if strings.Contains(out.String(), "since 06:33:17, 2 in all") {
				t.Errorf("%s says the two counts as one:\n%s", tt.name, out.String())
			}
		})
	}
}

// noCluster leaves a test with no cluster to reach: no in-cluster config,
// no kubeconfig, a HOME of its own (so no ~/.kube/config either).
func noCluster(t *testing.T) {
	t.Helper()
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir())
}

// writeManifest writes an object's YAML into the test's own directory and
// returns its path, for --filename.
func writeManifest(t *testing.T, yaml string) string {
	t.Helper()
	obj := filepath.Join(t.TempDir(), "object.yaml")
	if err := os.WriteFile(obj, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return obj
}
