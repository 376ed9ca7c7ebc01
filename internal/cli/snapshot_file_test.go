package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestSnapshotFileErrorNamesThePath: a --file that cannot be written is an
// error naming the user's path and why, never the temporary file it is
// written through (.snapshot-….json); nothing is left behind.
func TestSnapshotFileErrorNamesThePath(t *testing.T) {
	srv, _ := endpoint(t, false)
	dir := t.TempDir()
	asDir := filepath.Join(dir, "taken")
	if err := os.Mkdir(asDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(asDir, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "nonexistent", "x.json"), "--file " + filepath.Join(dir, "nonexistent", "x.json") + ": cannot write it: directory " + filepath.Join(dir, "nonexistent") + " does not exist"},
		// A directory (not empty) under the name: the rename fails.
		{asDir, "--file " + asDir + ": cannot write it: it is a directory; give a file name (e.g. " + filepath.Join(asDir, "snapshot.json") + ")"},
	} {
		err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "-f", tt.path)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), ".snapshot-") {
			t.Errorf("snapshot -f %s: error %v, want one starting %q, without the temporary file", tt.path, err, tt.want)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".snapshot-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
