package cli_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestGaveUpKeepsItsCount: sig-storage-lib-external-provisioner v13 gives
// a key up at its threshold without Forget ("Done but do not Forget",
// controller.go:993), and its give-up line states the count (failures=4,
// batch15/1506, a provisioner run here). get, describe and why showed the
// key failed with 0 failures; they say the 5 (4 before the give-up and
// its own), and that the controller gave up after them.
func TestGaveUpKeepsItsCount(t *testing.T) {
	noCluster(t)
	const log = "../inspector/logs/testdata/batch15/1506-sig-storage-provisioner-klog-giving-up-syncing-claim-volume-terminal.log"
	obj := writeManifest(t, "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: archive-2025-q3\nstatus:\n  phase: Released\n")
	for _, tt := range []struct {
		name   string
		new    func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) *cobra.Command
		args   []string
		want   []string
		unwant string
	}{
		{"get", cli.NewGetCommand, []string{"--from-logs", log, "-o", `jsonpath={range .items[*]}{.key} {.state} {.failures}{"\n"}{end}`},
			[]string{"archive-2025-q3 failed 5\n", "724c366a-7df5-46a6-af78-7aabf4881938 failed 5\n"}, "failed 0"},
		{"describe", cli.NewDescribeCommand, []string{"--from-logs", log, "archive-2025-q3"},
			[]string{"Gave up at 08:31:15 after 5 failures (the count its give-up line states; 3 in this log)",
				"  Failures:       5 failures (3 logged, 2 before them as the log states), over 3 reconciles\n"}, "none counted since"},
		{"why", cli.NewWhyCommand, []string{"-f", obj, "--from-logs", log},
			[]string{`controller "controller" gave up on it after 5 failures: only a change to the object retries it.`,
				"  Failures:       5 failures (3 logged, 2 before them as the log states)\n"}, "terminal error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &bytes.Buffer{}}
			cmd := tt.new(genericclioptions.NewConfigFlags(true), streams)
			cmd.SetArgs(tt.args)
			if err := cmd.Execute(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.name, err, out.String())
			}
			for _, want := range tt.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("%s lacks %q:\n%s", tt.name, want, out.String())
				}
			}
			if strings.Contains(out.String(), tt.unwant) {
				t.Errorf("%s says %q:\n%s", tt.name, tt.unwant, out.String())
			}
		})
	}
}
