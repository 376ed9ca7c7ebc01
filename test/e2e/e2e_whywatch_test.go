//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// whyWatch is a running `kubectl backoff why -w ARGS...`, its output
// collected as a pipe (not a terminal) gets it.
type whyWatch struct {
	cmd    *exec.Cmd
	out    lockedBuffer
	exited chan error
}

// startWhyWatch starts `kubectl backoff why -w args...` as the user of
// kubeconfig, and waits for its first answer.
func startWhyWatch(t *testing.T, kc *kubectl, kubeconfig string, args ...string) *whyWatch {
	t.Helper()
	w := &whyWatch{exited: make(chan error, 1)}
	w.cmd = exec.Command("kubectl", append([]string{"backoff", "why", "-w"}, args...)...)
	w.cmd.Env = kc.env(kubeconfig)
	w.cmd.Stdout, w.cmd.Stderr = &w.out, &w.out
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.exited <- w.cmd.Wait() }()
	t.Cleanup(func() {
		_ = w.cmd.Process.Kill() // its own process, if the test ended early
		<-w.exited
	})
	eventually(t, time.Minute, "why -w prints its first answer", func(context.Context) error {
		if out := w.out.String(); !strings.Contains(out, "\nWatching: ") {
			return fmt.Errorf("output so far:\n%s", out)
		}
		return nil
	})
	return w
}

// interrupt sends Ctrl-C and wants a clean exit (0) within 10 s.
func (w *whyWatch) interrupt(t *testing.T) {
	t.Helper()
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-w.exited:
		w.exited <- err // for the cleanup
		var ee *exec.ExitError
		if errors.As(err, &ee) || err != nil {
			t.Errorf("why -w after Ctrl-C: %v; want exit 0\n%s", err, w.out.String())
		}
	case <-time.After(10 * time.Second):
		t.Errorf("why -w still runs 10s after Ctrl-C")
	}
}
