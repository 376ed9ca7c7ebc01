package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// ErrInterrupted is a command stopped short by an interrupt (Ctrl-C,
// SIGTERM): main exits 130 for it, as a shell does for a process SIGINT
// ended, and says how far it got rather than what it would have said of a
// complete read ("read 0 lines; none recognised").
var ErrInterrupted = errors.New("interrupted")

// readUntilInterrupted runs read (a log read to its end) until it returns
// or ctx is done. A read blocked on a pipe, or on a FIFO's open waiting for
// a writer, does not see ctx: it is left behind, the process is about to
// exit. Interrupted, it returns ErrInterrupted saying how many lines the
// store had read.
func readUntilInterrupted(ctx context.Context, read func(context.Context), store *logs.Store, name string) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		read(ctx)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	if ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("--from-logs %s: %w after %s", name, ErrInterrupted, text.Plural(store.Stats().Lines, "line"))
}

// ExitCode is the exit status for a command's error: 130 for an
// interrupt (ErrInterrupted, or a command whose context the interrupt
// cancelled: interrupted says so), else 1.
func ExitCode(err error, interrupted bool) int {
	if errors.Is(err, ErrInterrupted) || (interrupted && errors.Is(err, context.Canceled)) {
		return 130
	}
	return 1
}
