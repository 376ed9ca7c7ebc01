package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// dialects prints a dialect file's name escaped: an SGR, a title and a NUL
// were written raw.
func TestDialectsCommandEscapesNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	file := "dialects:\n- name: \"d\\e[31m\\e]0;TITLE\\a\\0x\"\n  lines:\n  - text: \"gave \\e]8;;http://evil/\\a up\"\n    means: failure\n"
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewDialectsCommand(streams)
	cmd.SetArgs([]string{"--dialect", path})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out.String(), "\x1b\x07\x00") {
		t.Errorf("dialects printed a control character raw: %q", out)
	}
	if want := `d\x1b[31m\x1b]0;TITLE\a\x00x (`; !strings.Contains(out.String(), want) {
		t.Errorf("dialects:\n%s\nwant the name escaped, %s", out, want)
	}
}
