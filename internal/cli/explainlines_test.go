package cli_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestExplainLines shows the reading of every line of one fixture (a real
// Longhorn manager log, longhorn/longhorn#193: two drops read, and before
// each its inner cause, "fail to sync", read and counted once with the drop
// of its attempt, which its reading names, each with the error read), on
// stderr, beside get's table on stdout;
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
		`--explain-lines: line 1: generic (work-queue idiom): controller "volume_controller", key "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4": the same failed attempt as line 2's (one cause, one handler's line), counted once, there, at YEAR-08-08 07:02:46 UTC; read as the work-queue idiom, one key, read by its words, at error or warning level: "fail to sync" (opens the message, before the key and its error); limiter assumed client-go's default; the error read: "Timeout: request did not complete within allowed duration"`,
		`--explain-lines: line 2: generic (work-queue idiom): controller "Longhorn volume", key "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4": gave up: forgotten and not requeued, failed until the object changes, time unknown; read as the work-queue idiom, one key, read by its words, at error or warning level: a failure, and that the key was given up on, "fail to sync" … "Dropping"; limiter assumed client-go's default; the error read: "fail to sync longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4: Timeout: request did not complete within allowed duration"`,
		`--explain-lines: line 3: generic (work-queue idiom): controller "replica_controller", key "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8": the same failed attempt as line 4's (one cause, one handler's line), counted once, there, at YEAR-08-08 07:03:30 UTC; read as the work-queue idiom, one key, read by its words, at error or warning level: "fail to sync" (opens the message, before the key and its error); limiter assumed client-go's default; the error read: "the server was unable to return a response in the time allotted, but may still be processing the request (put replicas.longhorn.rancher.io pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8)"`,
		`--explain-lines: line 4: generic (work-queue idiom): controller "Longhorn replica", key "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8": gave up: forgotten and not requeued, failed until the object changes, time unknown; read as the work-queue idiom, one key, read by its words, at error or warning level: a failure, and that the key was given up on, "fail to sync" … "Dropping"; limiter assumed client-go's default; the error read: "fail to sync replica for longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8: the server was unable to return a response in the time allotted, but may still be processing the request (put replicas.longhorn.rancher.io pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8)"`,
	}
	var got []string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.HasPrefix(l, "--explain-lines:") {
			// klog writes no year: it is the clock's, so not compared.
			got = append(got, klogYear.ReplaceAllString(l, "at YEAR-"))
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

// TestExplainLinesQuotesTheMessageNotThePrefix: kube-controller-manager's
// job controller logs its failure as `"Unhandled Error" err="syncing job:
// …"`, read by the dialect's prefix "syncing job: ". Its reading names
// that line of the dialect, then the message the patterns were tried
// against and the error read after the prefix, which a dialect's writer
// checks; not the prefix quoted as the message.
func TestExplainLinesQuotesTheMessageNotThePrefix(t *testing.T) {
	log := filepath.Join("..", "inspector", "logs", "testdata", "kcm", "job-podsecurity-v2.log")
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	cmd := cli.NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", log, "--explain-lines"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("get: %v\n%s", err, errOut)
	}
	const want = `: failure, retried after the limiter's delay (estimated), at YEAR-12-06 15:21:29 UTC; read as the dialect's line "syncing job: …"; ` +
		`its message, as the patterns were tried against it: "syncing job: pods \"migrate-wmsbb\" is forbidden: violates PodSecurity \"restricted:latest\": ` +
		`allowPrivilegeEscalation != false (container \"migrate\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"migrate\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"migrate\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"migrate\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"; ` +
		`the error read: "pods \"migrate-wmsbb\" is forbidden: violates PodSecurity \"restricted:latest\": ` +
		`allowPrivilegeEscalation != false (container \"migrate\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"migrate\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"migrate\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"migrate\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"`
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.Contains(l, `key "psa/migrate": failure`) {
			if got := klogYear.ReplaceAllString(l, "at YEAR-"); !strings.HasSuffix(got, want) {
				t.Errorf("the first failure's reading:\n%s\nwant it to end:\n%s", got, want)
			}
			return
		}
	}
	t.Errorf("no failure of psa/migrate explained:\n%s", errOut)
}

// klogYear is the year a klog line's time was given by the clock.
var klogYear = regexp.MustCompile(`at \d{4}-`)
