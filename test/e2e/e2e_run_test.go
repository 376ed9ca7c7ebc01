//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// kubectl runs the real kubectl with the freshly built plugin first on PATH,
// as a user of the given kubeconfig.
type kubectl struct {
	binDir string
	home   string
}

// buildPlugin builds this module's binary as kubectl-backoff into dir/bin.
func buildPlugin(t *testing.T, dir string) *kubectl {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "kubectl-backoff"), "../..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build kubectl-backoff: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	return &kubectl{binDir: bin, home: home}
}

// env is the environment of a kubectl run as the user of kubeconfig.
func (k *kubectl) env(kubeconfig string) []string {
	return []string{
		"PATH=" + k.binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + k.home, // no ~/.kube of the machine's user
		"KUBECONFIG=" + kubeconfig,
	}
}

// run runs `kubectl args...` and returns its stdout and stderr. Every run is
// bounded; its command line and output go to the test log.
func (k *kubectl) run(t *testing.T, kubeconfig string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = k.env(kubeconfig)
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	t.Logf("$ kubectl %s  (as %s) -> err=%v\n%s%s", strings.Join(args, " "), filepath.Base(kubeconfig), err, clip(out.String()), clip(errOut.String()))
	return out.String(), errOut.String(), err
}

// ok runs kubectl and fails the test if it fails.
func (k *kubectl) ok(t *testing.T, kubeconfig string, args ...string) string {
	t.Helper()
	out, errOut, err := k.run(t, kubeconfig, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// jsonOf runs kubectl and decodes its stdout into v.
func (k *kubectl) jsonOf(t *testing.T, v any, kubeconfig string, args ...string) error {
	t.Helper()
	out, errOut, err := k.run(t, kubeconfig, args...)
	if err != nil {
		return fmt.Errorf("kubectl %s: %v: %s", strings.Join(args, " "), err, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		return fmt.Errorf("kubectl %s: output is not JSON: %v", strings.Join(args, " "), err)
	}
	return nil
}

// clip shortens command output for the log.
func clip(s string) string {
	const max = 600
	if len(s) > max {
		return s[:max] + fmt.Sprintf("... (%d more bytes)\n", len(s)-max)
	}
	return s
}

// tmuxSession runs a command in a detached tmux session on a private socket,
// at a fixed size, so a terminal UI can be read as a user sees it.
type tmuxSession struct {
	socket, name string
}

// startTmux starts cmd (a shell command line) under tmux with env; the tmux
// server is killed at the end of the test.
func startTmux(t *testing.T, dir string, env []string, cmdline string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	s := &tmuxSession{socket: filepath.Join(dir, "tmux.sock"), name: "e2e"}
	args := []string{"-S", s.socket, "new-session", "-d", "-s", s.name, "-x", "160", "-y", "40",
		"env " + shellQuote(env...) + " " + cmdline}
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	return s
}

// capture returns the visible pane.
func (s *tmuxSession) capture() (string, error) {
	out, err := exec.Command("tmux", "-S", s.socket, "capture-pane", "-p", "-t", s.name).Output()
	return string(out), err
}

// sendKeys types keys into the pane.
func (s *tmuxSession) sendKeys(keys ...string) error {
	return exec.Command("tmux", append([]string{"-S", s.socket, "send-keys", "-t", s.name}, keys...)...).Run()
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+-]+$`)

// shellQuote quotes words for a POSIX shell.
func shellQuote(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if shellSafe.MatchString(w) {
			q[i] = w
			continue
		}
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// lockedBuffer collects a component's log lines for a failed test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
