package cli_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// getFile runs get --from-logs path and returns its table, its stderr and
// its error.
func getFile(t *testing.T, path string) (string, string, error) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := cli.NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", path})
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

// TestSavedLogsThatAreNotPlainText: a rotated log, gzip-compressed, reads
// as the log it holds (a wild excerpt, compressed here), and so does one in
// UTF-16 behind its byte order mark (as Windows PowerShell saves it); a binary file is
// refused, naming the file and why, with an error (a non-zero exit); an
// empty file says it is empty, not to check the container.
func TestSavedLogsThatAreNotPlainText(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none")) // no cluster for the objects
	dir := t.TempDir()
	plain := filepath.Join("..", "inspector", "logs", "testdata", "wild", "cert-manager-3772.log")
	raw, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	gz := filepath.Join(dir, "cert-manager.log.1.gz")
	binary := filepath.Join(dir, "core")
	empty := filepath.Join(dir, "empty.log")
	for path, b := range map[string][]byte{gz: z.Bytes(), binary: []byte("\x7fELF\x02\x01\x01\x00\x00rest"), empty: nil} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	want, _, err := getFile(t, plain)
	if err != nil || !strings.Contains(want, "KEY") {
		t.Fatalf("the plain log: %v, table %q", err, want)
	}
	if got, stderr, err := getFile(t, gz); err != nil || got != want {
		t.Errorf("the gzip-compressed log: error %v, table\n%s\nwant the plain log's\n%s\nstderr: %s", err, got, want, stderr)
	}

	// Windows PowerShell 5.1's `kubectl logs POD > app.log`: UTF-16LE
	// behind its byte order mark, a NUL after every ASCII byte.
	utf16 := filepath.Join(dir, "powershell.log")
	u16 := []byte{0xff, 0xfe}
	for _, r := range string(raw) {
		u16 = append(u16, byte(r), byte(r>>8)) // the excerpt is ASCII but for none above U+FFFF
	}
	if err := os.WriteFile(utf16, u16, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, stderr, err := getFile(t, utf16); err != nil || got != want {
		t.Errorf("the UTF-16 log: error %v, table\n%s\nwant the plain log's\n%s\nstderr: %s", err, got, want, stderr)
	}

	_, _, err = getFile(t, binary)
	if err == nil || err.Error() != "--from-logs "+binary+" is not text (a NUL byte at offset 7): give a controller's log as kubectl logs prints it" {
		t.Errorf("a binary file: error %v, want it refused as not text", err)
	}

	_, stderr, err := getFile(t, empty)
	if err != nil || !strings.Contains(stderr, "--from-logs: the log is empty: nothing to read") || strings.Contains(stderr, "container") {
		t.Errorf("an empty file: error %v, stderr %q; want it said empty, and nothing of containers", err, stderr)
	}
}
