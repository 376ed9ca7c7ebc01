package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestQuietControllerLogIsNotDoubted: kube-controller-manager's log with
// no failure in it (the first 16 lines of the e2e tier's, verbatim: its
// controllers starting) is said quiet, with its lines and times and the
// program, not asked "is it the controller's log?"; a log that is no
// controller's still is. So is controller-runtime's (Argo CD's
// ApplicationSet controller starting, argoproj/applicationset#52).
func TestQuietControllerLogIsNotDoubted(t *testing.T) {
	whole, err := os.ReadFile("../inspector/logs/testdata/wild/kube-controller-manager-e2e.log")
	if err != nil {
		t.Fatal(err)
	}
	quiet := strings.Join(strings.SplitAfter(string(whole), "\n")[:16], "")
	if strings.Contains(quiet, "Unhandled Error") {
		t.Fatal("the quiet excerpt holds a failure")
	}
	argo, err := os.ReadFile("../inspector/logs/testdata/wild/argo-applicationset-52.log") // controller-runtime starting: no failure
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, log, want, notWant string
	}{
		{"kcm.log", quiet, "--from-logs: no failing keys in 16 lines from 12:44:18 to 12:44:19 (kube-controller-manager)", "is it the controller's log"},
		{"argo.log", string(argo), "--from-logs: no failing keys in 9 lines from 11:10:49 to 11:10:53 (controller-runtime)", "is it the controller's log"},
		// The same lines without the CRI prefix: klog's own time.
		{"kcm-klog.log", stripCRI(quiet), "--from-logs: no failing keys in 16 lines from 12:44:18 to 12:44:19 (kube-controller-manager)", "is it the controller's log"},
		{"access.log", "GET / 200\nGET /x 404\n", "is it the controller's log", "no failing keys"},
	} {
		file := filepath.Join(dir, tc.name)
		if err := os.WriteFile(file, []byte(tc.log), 0o600); err != nil {
			t.Fatal(err)
		}
		streams, _, _, errOut := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewGetCommand, streams, "--from-logs", file); err != nil {
			t.Fatalf("get --from-logs %s: %v", tc.name, err)
		}
		if !strings.Contains(errOut.String(), tc.want) || strings.Contains(errOut.String(), tc.notWant) {
			t.Errorf("get --from-logs %s said:\n%s\nwant %q, not %q", tc.name, errOut, tc.want, tc.notWant)
		}
	}
}

// stripCRI is log without the CRI prefix kubelet writes (TIME STREAM TAG):
// the lines as kube-controller-manager wrote them.
func stripCRI(log string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(log, "\n") {
		if f := strings.SplitN(l, " ", 4); len(f) == 4 {
			l = f[3]
		}
		b.WriteString(l)
	}
	return b.String()
}
