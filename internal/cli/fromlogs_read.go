package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// fileRead is one read of --from-logs FILE or - into its store.
type fileRead struct {
	name string
	// in is the log; open, when set, opens it instead (a FIFO: its open
	// waits for a writer, so it runs where the read runs).
	in   io.Reader
	open func() (io.Reader, error)
	// live is a pipe or FIFO; follow keeps reading (top).
	live, follow bool
	stdin        io.Reader // never closed
	errOut       io.Writer
	store        *logs.Store
	// taught are the --dialect files' dialects, for the note.
	taught []logs.Dialect
	// shape is what the log says of itself (which program wrote it, its
	// first and last lines), and lines what the read counted: said of a
	// log with no failure. Written before read returns, read after.
	shape logShape
	lines int

	// err is why a one-shot read stopped short (a gzip cut off, an I/O
	// error): the command fails with it rather than print a partial table
	// as if whole. Written before read returns, read after.
	err error
}

// read reads the log to its end, or until ctx is done.
func (r *fileRead) read(ctx context.Context) {
	in := r.in
	if r.open != nil {
		f, err := r.open()
		if err != nil {
			r.fail(fmt.Errorf("--from-logs: %w", err))
			return
		}
		in = f
	}
	orig := in // what is closed after, unless stdin
	defer func() {
		if c, ok := orig.(io.Closer); ok && orig != r.stdin {
			c.Close()
		}
	}()
	if r.live {
		// A pipe's first bytes are sniffed here, where an interrupt ends
		// the wait for them: gzip (zcat forgotten) is read through gzip, as
		// a file is.
		var err error
		if in, err = sniffPipe(r.name, in); err != nil {
			r.fail(err)
			return
		}
	}
	n, _, err := r.store.Read(ctx, shapeReader(in, &r.shape))
	r.lines = n
	if err != nil && ctx.Err() == nil {
		r.failAs(fmt.Errorf("--from-logs %s: read %s, then: %w: the log is cut short or corrupt, and what it held after is unknown", r.name, text.Plural(n, "line"), err),
			fmt.Sprintf("read stopped (%v): cut short or corrupt, the rest unknown; give the whole log again", err))
	}
}

// fail keeps err for the command to fail with; a read top follows in the
// background has no command to fail: top goes on with what was read, and
// says on screen (the store's LogRead.Stopped) and on stderr that the read
// stopped, why, and what to do.
func (r *fileRead) fail(err error) {
	r.failAs(err, "read stopped: "+strings.TrimPrefix(err.Error(), "--from-logs: "))
}

// failAs is fail, with the few words top's header says it in (short):
// what stopped the read and what to do.
func (r *fileRead) failAs(err error, short string) {
	r.err = err
	if r.follow && r.live {
		r.store.MarkStopped(short)
		fmt.Fprintln(r.errOut, err)
	}
}

// printNote says on w what the read found (printReadNote), or, for a log
// of a known program with no failure in it, what it is (logShape).
func (r *fileRead) printNote(ctx context.Context, w io.Writer) {
	st, lr := r.store.Stats(), r.store.LogRead()
	if quiet := r.shape.quietNote(ctx, r.lines, lr.Unreadable, st.Records); quiet != "" {
		fmt.Fprint(w, readSummary(lr))
		fmt.Fprintln(w, quiet)
		return
	}
	printReadNote(w, st, lr, !st.EndsAt.IsZero(), time.Now(), r.taught)
}
