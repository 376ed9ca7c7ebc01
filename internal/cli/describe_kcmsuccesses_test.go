package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDescribeKCMSuccessesAdvice: describe --from-logs FILE KEY of
// kube-controller-manager's log at -v=2 says, per controller, how to see
// its successes: the controllers that defer a V(4) "Finished syncing"
// line in their sync (the job controller's, job_controller.go:920; the
// replicaset controller's, replica_set.go:759) log them at --v=4 on
// kube-controller-manager, and that is said (not "instrument it": the
// reader runs it, does not build it); the HPA controller logs no success
// the dialect reads at any level, and "No level I know of" stays for it.
// Real lines: the e2e tier's -v=2 excerpts, and its -v=4 ReplicaSet run
// less its "Finished syncing" lines (what -v=2 writes of them).
func TestDescribeKCMSuccessesAdvice(t *testing.T) {
	const dir = "../inspector/logs/testdata/kcm/"
	raw, err := os.ReadFile(dir + "replicaset-quota-raised-v4.log")
	if err != nil {
		t.Fatal(err)
	}
	rsV2 := filepath.Join(t.TempDir(), "replicaset-quota-raised-v2.log")
	if err := os.WriteFile(rsV2, regexp.MustCompile(`(?m)^.*"Finished syncing.*\n`).ReplaceAll(raw, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	const level = "--v=4 on kube-controller-manager"
	for _, tt := range []struct {
		file, controller, key string
		level                 bool // its successes are logged at --v=4
	}{
		{dir + "job-podsecurity-v2.log", "job-controller", "psa/migrate", true},
		{rsV2, "replicaset-controller", "q4/web-5fc9f4bf66", true},
		{dir + "hpa-missing-target-v2.log", "horizontal-pod-autoscaler-controller", "missing/web", false},
	} {
		t.Run(tt.controller, func(t *testing.T) {
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			cmd := cli.NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
			cmd.SetArgs([]string{"--from-logs", tt.file, "--controller", tt.controller, tt.key})
			if err := cmd.Execute(); err != nil {
				t.Fatalf("describe: %v", err)
			}
			got := out.String()
			if !strings.Contains(got, "Controller:  "+tt.controller+"\n") {
				t.Fatalf("not %s's key:\n%s", tt.controller, got)
			}
			saysLevel, saysNone := strings.Contains(got, level), strings.Contains(got, "No level I know of")
			switch {
			case tt.level && (!saysLevel || saysNone):
				t.Errorf("describe does not advise %q for %s, which logs its successes there:\n%s", level, tt.controller, got)
			case !tt.level && (saysLevel || !saysNone):
				t.Errorf("describe advises %q for %s, which logs no success the dialect reads at any level:\n%s", level, tt.controller, got)
			}
			if strings.Contains(got, "instrument it") {
				t.Errorf("describe tells the reader of kube-controller-manager's log to instrument it:\n%s", got)
			}
		})
	}
}
