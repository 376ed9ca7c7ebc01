package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// buildBinary builds kubectl-backoff from the module root, once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kubectl-backoff-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "kubectl-backoff")
		if out, err := exec.Command("go", "build", "-o", binPath, "../..").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// startServing runs `demo --serve-only` and returns once it printed its URL.
func startServing(t *testing.T, bin string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "demo", "--serve-only", "--keys", "500", "--speed", "100", "--listen", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://127.0.0.1:") {
		t.Fatalf("first line %q, %v; want the endpoint URL", line, err)
	}
	return cmd
}

// waitExit waits for cmd to exit within limit and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		return 0
	case <-time.After(limit):
		t.Fatalf("still running %v after the signal", limit)
		return -1
	}
}

func TestBinarySignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	tests := []struct {
		name     string
		signals  []os.Signal
		limit    time.Duration
		wantCode int
	}{
		{"SIGINT stops cleanly", []os.Signal{os.Interrupt}, 5 * time.Second, 0},
		{"SIGTERM stops cleanly", []os.Signal{syscall.SIGTERM}, 5 * time.Second, 0},
		// Two different signals: the kernel merges a second pending SIGINT
		// into the first, as a user's double Ctrl-C, seconds apart, would not be.
		// A clean stop takes some 20 ms, so the second signal must be
		// pending before the first is acted on: the process is stopped
		// while both are sent (a test stalled between two sends would
		// otherwise see the clean stop's 0). Exiting 130 is what says the
		// second one counted; the limit is the clean stop's.
		{"second signal exits at once", []os.Signal{os.Interrupt, syscall.SIGTERM}, 5 * time.Second, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := startServing(t, bin)
			if len(tt.signals) > 1 {
				if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range tt.signals {
				if err := cmd.Process.Signal(s); err != nil {
					t.Fatal(err)
				}
			}
			if len(tt.signals) > 1 {
				if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
					t.Fatal(err)
				}
			}
			if e, a := tt.wantCode, waitExit(t, cmd, tt.limit); e != a {
				t.Errorf("exit code %d, want %d", a, e)
			}
		})
	}
}

func TestBinaryBadFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	out, err := exec.Command(bin, "demo", "--keys", "-1").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("exit %v, want non-zero", err)
	}
	if e, a := "error: --keys must be between 1 and 100000, got -1\n", string(out); e != a {
		t.Errorf("output %q, want %q", a, e)
	}
}
