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

// TestDiffBoundsItsSnapshots: issue #32's files. One past
// --max-snapshot-size is refused with its size, the bound and the flag
// that raises it; one with data after it, or two snapshots in one file,
// is refused; a bad bound names the flag.
func TestDiffBoundsItsSnapshots(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	ok := writeSnapshot(t, dir, "ok.json", &snapshot.File{Kind: snapshot.Kind, FormatVersion: snapshot.FormatVersion, WireAPI: api.APIVersion, TakenAt: at})
	body, err := os.ReadFile(ok)
	if err != nil {
		t.Fatal(err)
	}
	padded := filepath.Join(dir, "padded.json")
	twice := filepath.Join(dir, "twice.json")
	if err := os.WriteFile(padded, append(body, strings.Repeat(" ", 4096)...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(twice, append(append([]byte{}, body...), body...), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{padded, ok, "--max-snapshot-size", "1Ki"}, "BEFORE " + padded + ": 4.1 KiB, past the 1 KiB"},
		{[]string{ok, padded, "--max-snapshot-size", "1Ki"}, "past the 1 KiB a snapshot is read with; if it is one, raise the bound: --max-snapshot-size 1Mi"},
		{[]string{ok, twice}, "AFTER " + twice + ": a second JSON document follows the snapshot"},
		{[]string{ok, ok, "--max-snapshot-size", "-1"}, `--max-snapshot-size "-1": give a positive size`},
	} {
		err := run(diffCommand, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("diff %v: error %v, want one containing %q", tt.args, err, tt.want)
		}
	}
	if err := run(diffCommand, genericiooptions.NewTestIOStreamsDiscard(), ok, padded); err != nil {
		t.Errorf("diff of files within the default bound: %v", err)
	}
}
