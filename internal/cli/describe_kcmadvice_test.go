package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDescribeKCMControllerAdvice: describe --from-logs FILE --controller
// of kube-controller-manager's own log (the e2e tier's real lines, the
// logs package's kcm corpus) whose keys fail on a permanent error advises
// its reader, who does not build kube-controller-manager, to fix what the
// error names, as the key's own diagnosis does; not to return a
// TerminalError, advice to the controller's authors. An instrumented
// controller's diagnosis keeps that advice (TestDiagnoseController).
func TestDescribeKCMControllerAdvice(t *testing.T) {
	const dir = "../inspector/logs/testdata/kcm/"
	for _, tt := range []struct{ file, controller string }{
		{"pvc-binder-v4.log", "persistentvolume-binder-controller"},
		{"hpa-missing-target-v4.log", "horizontal-pod-autoscaler-controller"},
		{"job-podsecurity-v2.log", "job-controller"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			cmd := cli.NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
			cmd.SetArgs([]string{"--from-logs", dir + tt.file, "--controller", tt.controller})
			if err := cmd.Execute(); err != nil {
				t.Fatalf("describe: %v", err)
			}
			if want := "fix what the error names, in each failing key's object or in what it depends on."; !strings.Contains(out.String(), want) {
				t.Errorf("describe lacks %q:\n%s", want, out)
			}
			for _, bad := range []string{"TerminalError", "status condition and an Event", "instrument it", "forget"} {
				if strings.Contains(out.String(), bad) {
					t.Errorf("describe says %q, advice for the controller's authors or a queue a log cannot reach:\n%s", bad, out)
				}
			}
		})
	}
}
