package cli_test

import (
	"context"
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// diff and top --file, given a FIFO no one writes, end on an interrupt
// with ErrInterrupted (exit 130): the open waiting for a writer used to
// ignore Ctrl-C and SIGTERM, only SIGKILL ended it.
func TestSnapshotFIFOEndsOnInterrupt(t *testing.T) {
	for _, args := range [][]string{
		{"diff", "FIFO", "FIFO"},
		{"top", "--file", "FIFO"},
	} {
		t.Run(args[0], func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "snap.fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			for i, a := range args {
				if a == "FIFO" {
					args[i] = fifo
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
			root.SetArgs(args)
			done := make(chan error, 1)
			go func() { done <- root.ExecuteContext(ctx) }()
			cancel() // the interrupt: before or during the open, the same
			select {
			case err := <-done:
				if !errors.Is(err, cli.ErrInterrupted) {
					t.Errorf("%v = %v, want ErrInterrupted", args, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%v: still waiting for the FIFO's writer 10s after the interrupt", args)
			}
		})
	}
}
