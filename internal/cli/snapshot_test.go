package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// Snapshots before and after keys change: diff lists what changed.
func TestSnapshotAndDiff(t *testing.T) {
	srv, reconcile, clk := widgets(t, false)
	refused, timeout := errors.New("connection refused"), errors.New("timeout")
	for range 5 {
		reconcile("default/w1", refused)
	}
	reconcile("default/w2", timeout)
	reconcile("default/w3", nil)
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.json"), filepath.Join(dir, "after.json")
	take := func(path, note string) {
		t.Helper()
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewSnapshotCommand, streams, "--addr", srv.URL, "-f", path); err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		if out.Len() != 0 || !strings.Contains(errOut.String(), note+"; written to "+path) {
			t.Errorf("snapshot -f: stdout %q, stderr %q; want only a note on stderr", out, errOut)
		}
	}
	take(before, "3 keys, 2 with their history")
	clk.Step(time.Millisecond)       // within every delay: failing keys stay in backoff
	reconcile("default/w1", nil)     // recovers
	reconcile("default/w2", refused) // fails again, with another error
	reconcile("default/w4", timeout) // new, failing
	take(after, "4 keys, 2 with their history")

	in, err := os.Open(before)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	f, err := snapshot.Read(in)
	if err != nil {
		t.Fatalf("the file does not read back: %v", err)
	}
	if len(f.Endpoints) != 1 || len(f.Endpoints[0].Keys) != 3 || len(f.Endpoints[0].Details) != 2 || f.TakenAt.IsZero() {
		t.Errorf("snapshot: %+v; want 3 keys, 2 details and the server's time", f)
	}

	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, before, after); err != nil {
		t.Fatalf("diff: %v", err)
	}
	rows := tableRows(out.String())
	want := [][]string{
		{"CONTROLLER", "KEY", "CHANGE", "FAILS", "STATE", "LAST ERROR"},
		{"widget", "default/w4", "started-failing", "- → 1", "untracked → backoff", "timeout"},
		{"widget", "default/w2", "failures-grew,error-changed", "1 → 2", "backoff → backoff", "timeout → connection refused"},
		{"widget", "default/w1", "stopped-failing", "5 → 0", "backoff → idle", "connection refused"},
	}
	if !equalRows(want, rows) {
		t.Errorf("diff printed\n%s\nwant rows %q", out, want)
	}
	if !strings.Contains(errOut.String(), ": 1 started failing, 1 stopped, 1 failing more, 1 with another error, 0 with the failure count reset.") {
		t.Errorf("diff stderr %q, want the counts", errOut)
	}
	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, before, after, "-o", "json"); err != nil {
		t.Fatal(err)
	}
	var l struct{ Changes []snapshot.Change }
	if err := json.Unmarshal(out.Bytes(), &l); err != nil || len(l.Changes) != 3 || l.Changes[2].Before.Failures != 5 {
		t.Errorf("diff -o json: %v, %s", err, out)
	}

	// A file against itself: no change, nothing printed.
	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, before, before, "-o", "name"); err != nil || out.Len() != 0 {
		t.Errorf("diff of a file with itself: %v, %q; want nothing", err, out)
	}
}

// diffCommand is NewDiffCommand as a newCommand: diff reads files, not a cluster.
func diffCommand(_ *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	return cli.NewDiffCommand(streams)
}

func TestSnapshotAndDiffRefuse(t *testing.T) {
	dir := t.TempDir()
	notSnap := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(notSnap, []byte(`{"items":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	aLog := filepath.Join(dir, "demo.log")
	if err := os.WriteFile(aLog, []byte(`{"level":"error","ts":"2024-07-02T17:01:48Z","msg":"Reconciler error","error":"boom"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		newCmd newCommand
		args   []string
		want   string
	}{
		{cli.NewSnapshotCommand, []string{"--addr", unreachable, "--details", "-1"}, "--details -1: must be between 0 and 5000"},
		{cli.NewSnapshotCommand, []string{"--addr", unreachable, "default/w1"}, `snapshot takes at most a TARGET (KIND/NAME), not "default/w1"`},
		{cli.NewSnapshotCommand, []string{"--addr", unreachable}, "cannot connect to 127.0.0.1:1"},
		{diffCommand, []string{notSnap, notSnap}, `BEFORE ` + notSnap + `: not a snapshot: kind is ""`},
		// The library says a log; the command says which command reads one.
		{diffCommand, []string{aLog, notSnap}, `BEFORE ` + aLog + `: not a snapshot (it looks like a log: use get --from-logs)`},
		// Not cobra's "accepts 2 arg(s), received 1": which file is missing, and how to get it.
		{diffCommand, []string{notSnap}, "diff compares two snapshots, BEFORE and AFTER: got only BEFORE " + notSnap +
			"; take AFTER with `kubectl backoff snapshot -f after.json`, then `kubectl backoff diff " + notSnap + " after.json`"},
		{diffCommand, nil, "diff compares two snapshots, BEFORE and AFTER: got neither; take each with `kubectl backoff snapshot -f FILE`"},
		{diffCommand, []string{notSnap, notSnap, notSnap}, "diff compares two snapshots, BEFORE and AFTER: got 3 files"},
		{diffCommand, []string{filepath.Join(dir, "nope.json"), notSnap}, "BEFORE: open"},
	} {
		err := run(tt.newCmd, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}
