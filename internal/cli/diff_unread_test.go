package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// writeSnapshot writes f to dir/name and returns its path.
func writeSnapshot(t *testing.T, dir, name string, f *snapshot.File) string {
	t.Helper()
	path := filepath.Join(dir, name)
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := snapshot.Write(out, f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDiffRefusesAnUnreadReplica: issue #32's AFTER records a replica it
// could not read; its keys came out "stopped-failing … → untracked", rc 0.
// diff now refuses, naming the replica, its error, the unknown keys and
// the flag that accepts it; with --allow-unread it diffs what was read,
// leaves those keys out and still warns.
func TestDiffRefusesAnUnreadReplica(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	key := func(name string, failures int) api.Key {
		return api.Key{Controller: "widget", Key: name, State: api.StateBackoff, Failures: failures, LastError: &api.ErrorRecord{Message: "503", At: at}}
	}
	snap := func(taken time.Time, eps ...snapshot.Endpoint) *snapshot.File {
		return &snapshot.File{Kind: snapshot.Kind, FormatVersion: snapshot.FormatVersion, WireAPI: api.APIVersion, TakenAt: taken, Endpoints: eps}
	}
	dir := t.TempDir()
	before := writeSnapshot(t, dir, "before.json", snap(at,
		snapshot.Endpoint{Name: "demo/ctrl-0", ServerTime: at, Keys: []api.Key{key("default/read", 1)}},
		snapshot.Endpoint{Name: "demo/ctrl-1", ServerTime: at, Keys: []api.Key{key("default/shard-1a", 3), key("default/shard-1b", 5)}}))
	after := writeSnapshot(t, dir, "after.json", snap(at.Add(time.Minute),
		snapshot.Endpoint{Name: "demo/ctrl-0", ServerTime: at.Add(time.Minute), Keys: []api.Key{key("default/read", 2)}},
		snapshot.Endpoint{Name: "demo/ctrl-1", Error: "GET v1/keys: context deadline exceeded"}))

	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	err := run(diffCommand, streams, before, after)
	if err == nil {
		t.Fatalf("diff with an unread replica succeeded, printing:\n%s", out)
	}
	for _, want := range []string{"AFTER " + after + " could not read replica demo/ctrl-1 (GET v1/keys: context deadline exceeded)",
		"2 keys not listed there", "unknown", "--allow-unread"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("diff error %q does not say %q", err, want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("a refused diff printed:\n%s", out)
	}

	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(diffCommand, streams, before, after, "--allow-unread"); err != nil {
		t.Fatalf("diff --allow-unread: %v", err)
	}
	if s := out.String(); !strings.Contains(s, "default/read") || strings.Contains(s, "shard-1") || strings.Contains(s, "stopped-failing") {
		t.Errorf("diff --allow-unread printed\n%s\nwant default/read only, the unread replica's keys left out", s)
	}
	if !strings.Contains(errOut.String(), "Warning: AFTER "+after+" could not read replica demo/ctrl-1") {
		t.Errorf("diff --allow-unread stderr %q, want the unread replica named", errOut)
	}
}
