package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// tailOptions are how a followed --from-logs FILE is watched past its end
// (tests shorten them).
var tailOptions = logs.TailOptions{}

// openFollowed is top's --from-logs FILE (a regular file of text): read to
// its end as a saved log is (in time order, on every core), then followed
// as tail -F follows it, live, while top runs: appended lines show at the
// next refresh, and a file shortened or replaced under its name is read
// again from its start. A log whose last line is over oldLog old reads as
// of that line, as a pipe's does, until a newer line arrives. f is the
// opened file: taken.
func (o *fromLogsOptions) openFollowed(ctx context.Context, a *attachOptions, streams genericiooptions.IOStreams, f *os.File) (*inspector.Session, *describe.ObjectReader, error) {
	store, fr, cancel, err := o.follow(ctx, streams.ErrOut, f, true)
	if err != nil {
		return nil, nil, err
	}
	fr.printNote(ctx, streams.ErrOut)
	return logSession(store, o.source, cancel), a.kubeconfigObjects(), nil
}

// follow reads f, the regular file of text --from-logs names, into a store
// to its end, then on as it grows, on a goroutine until stop is called
// (openFollowed). A live store is judged at the clock once read (GoLive),
// unless its last line is over oldLog old; else at its newest line, as a
// saved log is (ReadOnAsSaved: why's answers). The read is what it
// counted, for its note. f is taken.
func (o *fromLogsOptions) follow(ctx context.Context, errOut io.Writer, f *os.File, live bool) (store *logs.Store, fr *fileRead, stop func(), err error) {
	name := o.source
	settle := tailOptions.Settle
	if settle <= 0 {
		settle = logs.DefaultTailSettle
	}
	// A writer in the middle of its last line: that line is left to the
	// tail, which reads it whole.
	end, err := logs.SettledEnd(f, settle, time.Now())
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("--from-logs %s: %w", name, err)
	}
	opts := logs.Options{ExplainLines: o.explainer(errOut), Dialects: o.dialects}
	if live {
		opts.DatedAfter = oldLog
	}
	store = logs.NewStore(opts)
	fr = &fileRead{name: name, in: io.NewSectionReader(f, 0, end), errOut: errOut, store: store, taught: o.dialects}
	if err := readUntilInterrupted(ctx, fr.read, store, name); err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	if fr.err != nil {
		f.Close()
		return nil, nil, nil, fr.err
	}
	if live {
		store.GoLive()
	} else {
		store.ReadOnAsSaved()
	}
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	tail, err := logs.NewTail(bg, name, f, end, tailOptions)
	if err != nil {
		cancel()
		f.Close()
		return nil, nil, nil, fmt.Errorf("--from-logs %s: %w", name, err)
	}
	go func() {
		defer tail.Close()
		// Close does not wait for it: cancel ends its wait at the file's
		// end within one look (TailOptions.Poll).
		if _, _, err := store.Read(bg, tail); err != nil && bg.Err() == nil {
			// top is on the screen: say it, and go on with what was read.
			fmt.Fprintf(errOut, "--from-logs %s: following it stopped: %v\n", name, err)
		}
	}()
	return store, fr, cancel, nil
}
