package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// blockedAfter serves lines, then blocks (an endless input with nothing
// more to say), closing reading once the reader asked for more: by then
// every line was read.
type blockedAfter struct {
	lines   string
	reading chan struct{}
}

func (b *blockedAfter) Read(p []byte) (int, error) {
	if b.lines != "" {
		n := copy(p, b.lines)
		b.lines = b.lines[n:]
		return n, nil
	}
	close(b.reading)
	select {} // as a pipe whose writer goes quiet
}

// getFromLogs runs get --from-logs source with ctx, returning its error
// within limit (or failing the test: the read did not end).
func getFromLogs(t *testing.T, ctx context.Context, streams genericiooptions.IOStreams, source string) error {
	t.Helper()
	cmd := NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", source})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("get --from-logs %s still running 10s after the interrupt", source)
		return nil
	}
}

// Issue #32: Ctrl-C on an endless input said "read 0 lines; none
// recognised … is it a controller's log?". It says how far it got, as
// ErrInterrupted (main exits 130), and prints no table.
func TestFromLogsInterruptedSaysHowFar(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in := &blockedAfter{lines: "one\ntwo\nthree\n", reading: make(chan struct{})}
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	streams.In = in
	go func() {
		<-in.reading // the three lines are read; the input goes quiet
		cancel()
	}()
	err := getFromLogs(t, ctx, streams, "-")
	if !errors.Is(err, ErrInterrupted) || err.Error() != "--from-logs stdin: interrupted after 3 lines" {
		t.Errorf("error %v, want --from-logs stdin: interrupted after 3 lines", err)
	}
	if ExitCode(err, true) != 130 {
		t.Errorf("exit code %d, want 130", ExitCode(err, true))
	}
	if out.Len() != 0 || strings.Contains(errOut.String(), "is it a controller's log") {
		t.Errorf("an interrupted read printed\n%s\nstderr: %s", out, errOut)
	}
}

// A FIFO with no writer blocked in its open and ignored the first Ctrl-C:
// it is read as a pipe is, and the interrupt ends it at once.
func TestFromLogsFIFOIsInterruptible(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "log.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C, before any writer comes
	err := getFromLogs(t, ctx, genericiooptions.NewTestIOStreamsDiscard(), fifo)
	if !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "interrupted after 0 lines") {
		t.Errorf("error %v, want it interrupted after 0 lines", err)
	}
	// Release the open left waiting for a writer.
	if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		w.Close()
	}
}

// `--from-logs DIR` printed "is a directory" and exited 0: refused, saying
// what to give.
func TestFromLogsRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	err := getFromLogs(t, context.Background(), genericiooptions.NewTestIOStreamsDiscard(), dir)
	if err == nil || !strings.Contains(err.Error(), "--from-logs "+dir+" is a directory: give one log file") ||
		!strings.Contains(err.Error(), "cat "+dir+"/*.log | kubectl backoff get --from-logs -") {
		t.Errorf("error %v, want the directory refused, naming the flag", err)
	}
	if ExitCode(err, false) != 1 {
		t.Errorf("exit code %d, want 1", ExitCode(err, false))
	}
}

// A request the interrupt cut ("context canceled" from an in-process URL,
// issue #32) exits 130 as an interrupted read does; the same error without
// an interrupt is a failure.
func TestExitCode(t *testing.T) {
	cut := fmt.Errorf("GET http://in-process/debug/backoff/v1/keys: %w", context.Canceled)
	for _, tt := range []struct {
		err         error
		interrupted bool
		want        int
	}{
		{cut, true, 130},
		{cut, false, 1},
		{fmt.Errorf("--from-logs stdin: %w after 3 lines", ErrInterrupted), false, 130},
		{errors.New("--limit 0: must be between 1 and 1000"), true, 1},
	} {
		if got := ExitCode(tt.err, tt.interrupted); got != tt.want {
			t.Errorf("ExitCode(%v, interrupted %v) = %d, want %d", tt.err, tt.interrupted, got, tt.want)
		}
	}
}
