package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// logFileArg takes the FILE of `--from-logs FILE` (or -) from args, as
// every command's --from-logs does: given alone, the flag cannot take the
// next word, so a file (or -) first or last among the arguments is its
// value; without one, --from-logs alone reads the controller's pods' log.
func (o *WhyOptions) logFileArg(args []string) []string {
	if o.FromLogs != fromTarget || len(args) == 0 {
		return args
	}
	if last := len(args) - 1; isLogFile(args[last]) {
		o.FromLogs = args[last]
		return args[:last]
	}
	if isLogFile(args[0]) {
		o.FromLogs = args[0]
		return args[1:]
	}
	return args
}

// logFile says whether --from-logs names a log the user has (a FILE, or -
// for stdin), not the controller's pods' log (--from-logs alone).
func (o *WhyOptions) logFile() bool { return o.FromLogs != "" && o.FromLogs != fromTarget }

// whyLogFile reads --from-logs (a saved file, gzip or not, or - for stdin)
// into a store once: `why` answers from it when the controller's pods are
// not visible (a managed control plane's exported logs, kind's files).
func (o *WhyOptions) whyLogFile(ctx context.Context) (*why.LogFile, error) {
	name := o.FromLogs
	var in io.Reader
	if name == "-" {
		name, in = "stdin", o.In
		if f, ok := o.In.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
				r, err := savedLog(name, f)
				if err != nil {
					return nil, err
				}
				in = r
			}
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, openLogErr(err)
		}
		defer f.Close()
		if in, err = savedLog(name, f); err != nil {
			return nil, err
		}
	}
	// Read to its end, judged as of its newest line when that is old: a
	// saved log says what the controller did then.
	store := logs.NewStore(logs.Options{})
	if n, _, err := store.Read(ctx, in); err != nil {
		return nil, fmt.Errorf("--from-logs %s: read %s, then: %w", name, text.Plural(n, "line"), err)
	}
	return &why.LogFile{Store: store, Name: name, Controller: o.ControllerLog}, nil
}

// whyDirect opens the endpoints of --addr (several: one controller's
// replicas, merged) for an operator outside the cluster (`go run`).
func (o *WhyOptions) whyDirect() (*why.Direct, error) {
	var eps []*inspector.Endpoint
	for _, addr := range o.Addrs {
		if err := addrQueryRefused(addr); err != nil {
			return nil, err
		}
		c, err := inspector.NewClient(directURL(addr), nil)
		if err != nil {
			return nil, fmt.Errorf("--addr %s: %w", addr, err)
		}
		eps = append(eps, &inspector.Endpoint{Name: addr, Client: c})
	}
	return &why.Direct{Session: inspector.NewSession(eps, nil), Addrs: o.Addrs}, nil
}
