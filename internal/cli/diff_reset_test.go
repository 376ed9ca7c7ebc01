package cli_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDiffListsAForgottenKey: a key forgotten between two snapshots that
// kept failing (14 failures, then 4) is listed as a count reset, with who
// reset it; it is not silently left out.
func TestDiffListsAForgottenKey(t *testing.T) {
	srv, reconcile, clk := widgets(t, false)
	refused := errors.New("connection refused")
	for range 14 {
		reconcile("default/w1", refused)
	}
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.json"), filepath.Join(dir, "after.json")
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", before); err != nil {
		t.Fatal(err)
	}
	clk.Step(time.Second)
	if err := run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "default/w1"); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		clk.Step(time.Second)
		reconcile("default/w1", refused)
	}
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", after); err != nil {
		t.Fatal(err)
	}
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, before, after); err != nil {
		t.Fatalf("diff: %v", err)
	}
	want := [][]string{
		{"CONTROLLER", "KEY", "CHANGE", "FAILS", "STATE", "LAST ERROR"},
		{"widget", "default/w1", "count-reset (forget)", "14 → 4", "backoff → backoff", "connection refused"},
	}
	if rows := tableRows(out.String()); !equalRows(want, rows) {
		t.Errorf("diff printed\n%s\nwant rows %q", out, want)
	}
	if !strings.Contains(errOut.String(), ", 1 with the failure count reset.") {
		t.Errorf("diff stderr %q, want the reset counted", errOut)
	}
}

// TestDiffWithNoChange: two snapshots with no key changed between them
// print no table (a header over nothing reads as a listing that failed)
// and say so, with the times; a snapshot against itself says it may be.
func TestDiffWithNoChange(t *testing.T) {
	srv, reconcile, clk := widgets(t, false)
	reconcile("default/w1", errors.New("connection refused"))
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.json"), filepath.Join(dir, "after.json")
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", before); err != nil {
		t.Fatal(err)
	}
	clk.Step(time.Minute)
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", after); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ a, b, want string }{
		{before, after, " (1m0s later).\n"},
		{before, before, " (the same moment: the same snapshot?).\n"},
	} {
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		if err := run(diffCommand, streams, tc.a, tc.b); err != nil {
			t.Fatalf("diff: %v", err)
		}
		if out.Len() != 0 || !strings.HasPrefix(errOut.String(), "No key changed from ") || !strings.HasSuffix(errOut.String(), tc.want) {
			t.Errorf("diff %s %s: stdout %q, stderr %q; want no table, and stderr to say no key changed and end %q",
				filepath.Base(tc.a), filepath.Base(tc.b), out, errOut, tc.want)
		}
	}
}
