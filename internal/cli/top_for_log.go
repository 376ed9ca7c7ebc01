package cli

import (
	"context"
	"io"
	"os"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// forLogFile opens `top --for TYPE --from-logs FILE`'s log once, for every
// refresh: a file of text is read to its end, then followed as it grows,
// as `top --from-logs FILE` follows it (tail -F: appended lines are read
// once, a file shortened or replaced under its name read again from its
// start, the counts going on), so a refresh costs what was appended, not
// the whole file again. A gzip does not grow: it is read once. stop ends
// the following.
func (o *TopOptions) forLogFile(ctx context.Context, w *WhyOptions) (lf *why.LogFile, stop func(), err error) {
	f, err := os.Open(o.fromLogs.source)
	if err != nil {
		return nil, nil, openLogErr(err)
	}
	in, err := savedLog(o.fromLogs.source, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || in != io.Reader(f) {
		f.Close()
		lf, err := w.whyLogFile(ctx)
		return lf, func() {}, err
	}
	// Judged at its newest line, as why --from-logs FILE judges a file
	// (and as each refresh did when it read the file again): a key stays
	// failing until the log says otherwise, not "unknown" once quiet.
	store, _, stop, err := o.fromLogs.follow(ctx, o.ErrOut, f, false)
	if err != nil {
		return nil, nil, err
	}
	return &why.LogFile{Store: store, Name: o.fromLogs.source, Controller: w.ControllerLog}, stop, nil
}
