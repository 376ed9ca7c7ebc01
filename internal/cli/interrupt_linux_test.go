package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"
)

// The binary, reading a FIFO whose writer stays open, is interrupted: it
// says how far it got and exits 130, on the first Ctrl-C (the second one
// was needed before).
func TestBinaryInterruptedReadExits130(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	fifo := filepath.Join(t.TempDir(), "log.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd := exec.Command(bin, "get", "--from-logs", fifo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// A FIFO's write end opens without blocking once a reader has it open:
	// then the binary is past its signal handling's start, and reading.
	var w *os.File
	for deadline := time.Now().Add(10 * time.Second); w == nil; {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		switch {
		case err == nil:
			w = f
		case time.Now().After(deadline):
			t.Fatalf("the binary did not open the FIFO: %v", err)
		default:
			time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
		}
	}
	defer w.Close()
	if _, err := w.WriteString("one\ntwo\n"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if e, a := 130, waitExit(t, cmd, 5*time.Second); e != a {
		t.Errorf("exit code %d, want %d; stderr:\n%s", a, e, &stderr)
	}
	if !regexp.MustCompile(`^--from-logs \S+: interrupted after [0-9]+ lines?\n$`).Match(stderr.Bytes()) {
		t.Errorf("stderr %q, want --from-logs FIFO: interrupted after N lines", &stderr)
	}
}
