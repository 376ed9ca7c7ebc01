package cli

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// gzipped is text compressed as gzip writes it.
func gzipped(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	if _, err := z.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gzipLog is a log of many failures: its gzip is long enough to cut.
func gzipLog() string {
	var b strings.Builder
	for i := range 2000 {
		b.WriteString(`{"level":"error","ts":"2025-06-01T10:00:00Z","msg":"Reconciler error","controller":"widgets","namespace":"demo","name":"w`)
		b.WriteString(strings.Repeat("x", i%7) + string(rune('a'+i%26)))
		b.WriteString(`","error":"boom"}` + "\n")
	}
	return b.String()
}

// Issue #47 item 8: a gzip cut short, or corrupt, exited 0 after a warning
// with a partial table; a 10-byte header-only gzip was "the log is empty".
// Both fail, saying the log is cut short or corrupt.
func TestGetFromLogsCutGzipFails(t *testing.T) {
	full := gzipped(t, gzipLog())
	corrupt := bytes.Clone(full)
	corrupt[len(corrupt)-6] ^= 0xff // the CRC
	for name, raw := range map[string][]byte{
		"truncated":   full[:len(full)/2],
		"header only": full[:10],
		"bad crc":     corrupt,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "app.log.gz")
			if err := os.WriteFile(path, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			streams, _, _, errOut := genericiooptions.NewTestIOStreams()
			cmd := NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
			cmd.SetArgs([]string{"--from-logs", path})
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), "--from-logs "+path) || !strings.Contains(err.Error(), "cut short or corrupt") {
				t.Errorf("get --from-logs %s: %v (stderr %q); want it to fail, cut short or corrupt", name, err, errOut)
			}
		})
	}
}

// A gzip piped on stdin (zcat forgotten) is read through gzip, as a file
// is: it was read as text, none of it recognised, with no hint.
func TestGetFromLogsGzipOnAPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.log.gz")
	if err := os.WriteFile(path, gzipped(t, gzipLog()), 0o600); err != nil {
		t.Fatal(err)
	}
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	streams.In = pipeFile(t, path)
	cmd := NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", "-"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("get: %v (stderr: %s)", err, errOut)
	}
	if !strings.Contains(out.String(), "demo/wa") || !strings.Contains(errOut.String(), "read 2,000 lines") {
		t.Errorf("get of a gzip on stdin:\n%s\nstderr:\n%s\nwant the keys read through gzip", out, errOut)
	}
}
