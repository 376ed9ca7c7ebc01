package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// dialects lists the built-in dialects, a file's after them, and the
// generic reader last, in the order a line is tried; a broken file is
// refused with its line.
func TestDialectsCommand(t *testing.T) {
	dir := t.TempDir()
	good, broken := filepath.Join(dir, "widget.yaml"), filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(good, []byte(inHouseDialect), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("dialects:\n- name: w\n  lines:\n  - text: x\n    means: maybe\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewDialectsCommand(streams)
	cmd.SetArgs([]string{"--dialect", good})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], `controller-runtime (built-in): "Reconciler error"`) ||
		!strings.HasPrefix(lines[len(lines)-2], "widget-operator ("+good+":2): /^sync of widget") ||
		!strings.HasPrefix(lines[len(lines)-1], "generic (work-queue idiom) (built-in): ") {
		t.Errorf("dialects:\n%s\nwant the built-ins, then widget-operator, then the generic reader", out)
	}
	cmd = NewDialectsCommand(streams)
	cmd.SetArgs([]string{"--dialect", broken})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), broken+":5: means:") {
		t.Errorf("broken file: %v; want it refused at line 5, field means", err)
	}
}
