package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDescribeFromLogsCounts: describe's counts of a key read off a log
// say what the log shows, never more. Two real excerpts (batch 3):
// sealed-secrets logs "Error updating wdev/mysql, giving up" once — it
// gives up only when NumRequeues reaches its maxRetries, and the retries
// before are not in the paste — so no retry count is invented and the
// one logged failure is not "0 failures"; the CSI provisioner states
// "failure 16" beside the retry (NumRequeues before AddRateLimited) and
// logs the attempt's error once: 17 failures, one of them logged. A
// Crossplane provider's managed reconciler returns Requeue: true, which its
// limiter counts though no error is logged (wild/crossplane-4099): a
// requeue, not "1 consecutive failure, 0 in this log".
func TestDescribeFromLogsCounts(t *testing.T) {
	const dir = "../inspector/logs/testdata/batch3/"
	for _, tt := range []struct {
		file, key string
		want, not []string
	}{{
		file: "70-sealed-secrets-stdlog-giving-up-terminal.log", key: "wdev/mysql",
		want: []string{
			"Gave up at 23:49:23 (the controller's retry limit was reached; 1 failure in this log)",
			"Failures:       none counted since the controller gave up; 1 failure in this log, over 1 reconcile\n",
		},
		not: []string{"after 1 retry", "0 failures logged", "1 reconciles"},
	}, {
		file: "79-csi-provisioner-klog-retrying-failure-16.log", key: "bd1cb869-b9d5-4e11-94b3-88491da78050",
		want: []string{
			"Backing off 5m28s after 17 failures (1 logged, 16 before it as the log states)",
			"Failures:       17 failures (1 logged, 16 before it as the log states), over 1 reconcile\n",
		},
		not: []string{"17 failures logged", "1 reconciles", "may not be consecutive"},
	}, {
		file: "../wild/crossplane-4099.log", key: "sample-bucket-1-v7t6x-6276p",
		want: []string{"Failures:       1 rate-limited requeue (Requeue: true, not an error), over 1 reconcile\n"},
		not:  []string{"0 in this log", "1 consecutive failure"},
	}} {
		t.Run(tt.file, func(t *testing.T) {
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			cmd := cli.NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
			cmd.SetArgs([]string{"--from-logs", dir + tt.file, tt.key})
			if err := cmd.Execute(); err != nil {
				t.Fatalf("describe: %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("describe lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("describe says %q:\n%s", n, out)
				}
			}
		})
	}
}
