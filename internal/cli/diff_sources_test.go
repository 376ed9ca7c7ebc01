package cli_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDiffWarnsAcrossSources: an endpoint's snapshot against a log's is
// not a diff of the keys alone: diff says on stderr that the sources
// differ and how many of the endpoint's keys the log never saw (here 3 of
// the endpoint's 4: the log logged default/w1 only). The log line is
// controller-runtime's zap JSON "Reconciler error" (inspector/logs'
// fixture from controller-runtime v0.6), at 09:59:00, before the
// endpoint's fake clock (10:00).
func TestDiffWarnsAcrossSources(t *testing.T) {
	srv, reconcile, _ := widgets(t, false)
	for _, k := range []string{"default/w1", "default/w2", "default/w3", "default/w4"} {
		reconcile(k, errors.New("connection refused"))
	}
	dir := t.TempDir()
	logFile, logSnap, epSnap := filepath.Join(dir, "controller.log"), filepath.Join(dir, "logsnap.json"), filepath.Join(dir, "after.json")
	ts := time.Date(2026, 11, 30, 9, 59, 0, 0, time.UTC).Unix()
	line := fmt.Sprintf(`{"level":"error","ts":%d.081,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":"widget","request":"default/w1","error":"connection refused"}`+"\n", ts)
	if err := os.WriteFile(logFile, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--from-logs", logFile, "-f", logSnap); err != nil {
		t.Fatalf("snapshot --from-logs: %v", err)
	}
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", epSnap); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, logSnap, epSnap); err != nil {
		t.Fatalf("diff: %v", err)
	}
	for _, want := range []string{
		"Warning: BEFORE " + logSnap + " is a snapshot of a log (log " + logFile + "), AFTER " + epSnap + " of an endpoint (" + srv.URL + ")",
		"3 keys of the endpoint's are not in BEFORE's log",
		"Compare two snapshots of the same source",
	} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("diff stderr lacks %q:\n%s", want, errOut)
		}
	}
	// Two snapshots of one source: no warning.
	streams, _, _, errOut = genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, epSnap, epSnap); err != nil || strings.Contains(errOut.String(), "Warning") {
		t.Errorf("diff of one source: %v, stderr %q; want no warning", err, errOut)
	}
}

// TestDiffRefusesAfterBeforeBefore: AFTER taken before BEFORE is refused,
// naming both files, their times, and the command with them swapped.
func TestDiffRefusesAfterBeforeBefore(t *testing.T) {
	srv, reconcile, clk := widgets(t, false)
	reconcile("default/w1", errors.New("connection refused"))
	dir := t.TempDir()
	early, late := filepath.Join(dir, "before.json"), filepath.Join(dir, "after.json")
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", early); err != nil {
		t.Fatal(err)
	}
	clk.Step(20 * time.Second)
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", late); err != nil {
		t.Fatal(err)
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	err := run(diffCommand, streams, late, early)
	want := "AFTER " + early + " was taken at 2026-11-30 10:00:00 UTC, 20s before BEFORE " + late + " (2026-11-30 10:00:20 UTC): " +
		"diff compares an earlier BEFORE to a later AFTER; swap them: kubectl backoff diff " + early + " " + late
	if err == nil || err.Error() != want {
		t.Errorf("diff AFTER BEFORE: error %v, want %q", err, want)
	}
	if out.Len() != 0 {
		t.Errorf("diff AFTER BEFORE printed %q; want nothing on stdout", out)
	}
	if err := run(diffCommand, genericiooptions.NewTestIOStreamsDiscard(), early, late); err != nil {
		t.Errorf("diff BEFORE AFTER: %v", err)
	}
}
