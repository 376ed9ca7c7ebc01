package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestBinaryTopReadsAPipedLog: `kubectl logs … | kubectl backoff top
// --from-logs -` on a terminal reads the log from stdin and the keys from
// the terminal (/dev/tty), as less does, instead of refusing for want of a
// terminal on stdin; its header names the log, with no namespace or
// connection, which a local log has not. The binary runs with a
// pseudo-terminal as its controlling terminal and stdout, and a pipe as
// stdin.
func TestBinaryTopReadsAPipedLog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	master, tty := openPTY(t)
	logR, logW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer logW.Close()
	kubeconfig := filepath.Join(t.TempDir(), "config") // none: nothing of the machine's
	cmd := exec.Command(bin, "top", "--from-logs", "-")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = logR, tty, tty
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "TERM=xterm", "KUBECONFIG="+kubeconfig)
	// The pseudo-terminal is the child's controlling terminal: its /dev/tty.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	logR.Close()
	tty.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if _, err := logW.WriteString(errorLine); err != nil {
		t.Fatal(err)
	}
	shown := func() string {
		mu.Lock()
		defer mu.Unlock()
		return screen.String()
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(shown(), "default/w1") {
		if time.Now().After(deadline) {
			t.Fatalf("top did not show the piped key within 20s; it printed:\n%q", shown())
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
	}
	out := shown()
	if !strings.Contains(out, "logs: stdin") {
		t.Errorf("the header does not name the log (logs: stdin):\n%q", out)
	}
	for _, not := range []string{"ns default", "connected", "leader"} {
		if strings.Contains(out, not) {
			t.Errorf("the header says %q of a local log:\n%q", not, out)
		}
	}
	if _, err := master.WriteString("q"); err != nil { // a key, read from /dev/tty
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 20*time.Second); code != 0 {
		t.Errorf("top quit with exit code %d, want 0; it printed:\n%q", code, shown())
	}
}
