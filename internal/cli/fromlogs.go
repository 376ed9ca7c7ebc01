package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// fromTarget is --from-logs given alone: stream the TARGET's pods' logs.
const fromTarget = "(target)"

// fromLogsOptions is --from-logs: read a controller's log instead of its
// endpoint, for controllers that do not import the instrument. The same
// Session comes out, so the commands run unchanged on it.
type fromLogsOptions struct {
	source string // "", fromTarget, "-" or a file
	since  time.Duration
	// explainLines is --explain-lines: say on stderr how each line that
	// yielded something or looked like a failure was read.
	explainLines bool
	// dialectFiles are --dialect FILE (and $KUBECTL_BACKOFF_DIALECTS);
	// dialects what validate loaded from them.
	dialectFiles []string
	dialects     []logs.Dialect
	flags        *pflag.FlagSet // to tell a --since given from its default
	// followFile follows a FILE as top does (openFollowed), for get -w and
	// describe -w.
	followFile bool
}

// dialectsEnv lists dialect files, as PATH does directories.
const dialectsEnv = "KUBECTL_BACKOFF_DIALECTS"

func (o *fromLogsOptions) addFlags(fs *pflag.FlagSet) {
	o.flags = fs
	fs.StringVar(&o.source, "from-logs", o.source, "Read the controller's log instead of its endpoint (no instrument needed; numbers are estimates): "+
		"alone, stream the TARGET's pods' logs; or a FILE, or - for stdin")
	fs.Lookup("from-logs").NoOptDefVal = fromTarget
	o.since = logs.DefaultSince
	fs.DurationVar(&o.since, "since", o.since, "With --from-logs and a TARGET: how much of the log to read first (streaks are counted from there)")
	fs.StringArrayVar(&o.dialectFiles, "dialect", o.dialectFiles, "With --from-logs: also read an in-house controller's lines as the dialect `FILE` says "+
		"(repeatable; also $"+dialectsEnv+", a list of files); its format: docs/log-mode.md, or see what is read with kubectl backoff dialects")
	fs.BoolVar(&o.explainLines, "explain-lines", o.explainLines, "With --from-logs: say on stderr how each line that yielded something or looked like a failure was read "+
		"(its dialect, key, meaning and why), to check a log is understood or to write a dialect; with top, stderr must go to a file (2>lines.txt), not the screen top draws on")
}

func (o *fromLogsOptions) enabled() bool { return o.source != "" }

// kickFrom is where a suggested kick finds the log again: the TARGET whose
// logs were read (attach, its words), or the file read (kick --from-logs
// FILE KEY reads each key's kind from it); neither for stdin, which cannot
// be read twice, nor without --from-logs.
func (o *fromLogsOptions) kickFrom(attach string) (target, file string) {
	switch o.source {
	case "", "-":
		return "", ""
	case fromTarget:
		return attach, ""
	}
	return "", o.source
}

// complete takes the FILE of `--from-logs FILE` (or `-`) from args: given
// alone, --from-logs cannot take the next word itself, so without a TARGET
// the first argument is the file. Flags go anywhere, as in kubectl, so a
// user writes `describe KEY --from-logs FILE` as often as `describe
// --from-logs FILE KEY`: when the first argument is no file and the last
// is one (or -), the last is the file.
func (o *fromLogsOptions) complete(args []string, a *attachOptions) []string {
	if o.source != fromTarget || !a.target.IsZero() || len(args) == 0 {
		return args
	}
	if last := len(args) - 1; last > 0 && !isLogFile(args[0]) && isLogFile(args[last]) {
		o.source = args[last]
		return args[:last]
	}
	o.source = args[0]
	return args[1:]
}

// isLogFile says whether arg names a log --from-logs can read: - (stdin)
// or a path that exists (a key, ns/name, seldom does).
func isLogFile(arg string) bool {
	if arg == "-" {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

func (o *fromLogsOptions) validate(a *attachOptions) error {
	sinceGiven := o.flags != nil && o.flags.Changed("since")
	switch {
	case !o.enabled() && o.explainLines:
		return fmt.Errorf("--explain-lines says how --from-logs read a log's lines: give --from-logs too")
	case !o.enabled() && len(o.dialectFiles) > 0:
		return fmt.Errorf("--dialect teaches --from-logs a controller's lines: give --from-logs too")
	case !o.enabled() && sinceGiven:
		return fmt.Errorf("--since applies to --from-logs with a TARGET (how much of its pods' logs to read); an endpoint has no log to go back into: drop --since")
	case !o.enabled():
		return nil
	case sinceGiven && o.source != fromTarget:
		what := "the file " + o.source
		if o.source == "-" {
			what = "stdin"
		}
		return fmt.Errorf("--since applies to a TARGET's logs (kubectl backoff get deploy/NAME --from-logs --since 2h); %s is read whole: drop --since (or cut the log before: kubectl logs --since=2h … | kubectl backoff … --from-logs -)", what)
	case a.addr != "":
		return fmt.Errorf("--from-logs reads a log and --addr an endpoint: give one of them")
	case a.allNamespaces:
		return fmt.Errorf("--from-logs reads one controller's log: drop -A and give a TARGET")
	case o.source == fromTarget && a.target.IsZero():
		return fmt.Errorf("--from-logs: give a TARGET (deploy/NAME) to stream its pods' logs, or a FILE or - (stdin) to read")
	case o.source != fromTarget && !a.target.IsZero():
		return fmt.Errorf("--from-logs %q reads that file: drop the TARGET, or give --from-logs alone to stream the TARGET's logs", o.source)
	case o.since <= 0:
		return fmt.Errorf("--since %v: must be positive", o.since)
	}
	files := slices.Clone(o.dialectFiles)
	for _, f := range filepath.SplitList(os.Getenv(dialectsEnv)) {
		if f != "" {
			files = append(files, f)
		}
	}
	o.dialects = nil
	for _, f := range files {
		ds, err := logs.LoadDialects(f)
		if err != nil {
			if _, ok := errors.AsType[*logs.DialectError](err); ok {
				return fmt.Errorf("--dialect %w", err) // FILE:LINE: field: what is wrong
			}
			return fmt.Errorf("--dialect: %w", err)
		}
		o.dialects = append(o.dialects, ds...)
	}
	return nil
}

// open opens the log source when --from-logs is given, else attaches as
// a.open does. follow keeps reading (top); otherwise the log is read to its
// end first (get, describe).
func (o *fromLogsOptions) open(ctx context.Context, a *attachOptions, streams genericiooptions.IOStreams, follow bool) (*inspector.Session, *describe.ObjectReader, error) {
	if !o.enabled() {
		return a.open(ctx, streams.Out)
	}
	if o.source != fromTarget {
		return o.openFile(ctx, a, streams, follow)
	}
	return o.openTarget(ctx, a, streams, follow)
}

func (o *fromLogsOptions) openFile(ctx context.Context, a *attachOptions, streams genericiooptions.IOStreams, follow bool) (*inspector.Session, *describe.ObjectReader, error) {
	name, in, live := o.source, streams.In, false
	// open is nil, or opens a FIFO (or a device): its open waits for a
	// writer, so it runs where the read runs, which an interrupt ends.
	var open func() (io.Reader, error)
	if o.source == "-" {
		name = "stdin"
		// A pipe is written as it is read (kubectl logs -f | ...): now is
		// the clock's, unless its lines are old (DatedAfter below). A
		// saved file reads as of its last line.
		if f, ok := in.(*os.File); ok {
			switch st, err := f.Stat(); {
			case err == nil && !st.Mode().IsRegular():
				live = true
			case err == nil:
				// A file given as stdin (< app.log.gz) is a saved log.
				r, err := savedLog(name, f)
				if err != nil {
					return nil, nil, err
				}
				in = r
			}
		}
	} else if st, err := os.Stat(o.source); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("--from-logs %s is a directory: give one log file, or several through a pipe: cat %s/*.log | kubectl backoff get --from-logs -",
			o.source, strings.TrimSuffix(o.source, "/"))
	} else if err == nil && !st.Mode().IsRegular() {
		// A FIFO is read as a pipe is: live, and ended by an interrupt.
		live, in = true, nil
		open = func() (io.Reader, error) { return os.Open(o.source) }
	} else {
		f, err := os.Open(o.source)
		if err != nil {
			return nil, nil, openLogErr(err)
		}
		if in, err = savedLog(o.source, f); err != nil {
			f.Close()
			return nil, nil, err
		}
		if (follow || o.followFile) && in == io.Reader(f) {
			// top (and get -w, describe -w) on a file of text follows it
			// as it grows (tail -F); a gzip is read once.
			return o.openFollowed(ctx, a, streams, f)
		}
	}
	// A pipe may as well carry a saved log (cat old.log | ...): one whose
	// newest line is older than oldLog when read is judged as of that line,
	// as a file is (the store decides, so that the note below, top's
	// header and every answer's source.endsAt say the time base it uses).
	store := logs.NewStore(logs.Options{Live: live, DatedAfter: oldLog, ExplainLines: o.explainer(streams.ErrOut), Dialects: o.dialects})
	fr := &fileRead{name: name, in: in, open: open, live: live, follow: follow, stdin: streams.In, errOut: streams.ErrOut, store: store, taught: o.dialects}
	read := fr.read
	if follow && live {
		// Kept reading while top runs. Close does not wait for it: a read
		// blocked on a pipe ends only with the pipe (or the process).
		bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
		go func() {
			read(bg)
			if bg.Err() == nil {
				store.MarkEnded() // the pipe closed: top's header says so
			}
		}()
		return logSession(store, name, cancel), a.kubeconfigObjects(), nil
	}
	if err := readUntilInterrupted(ctx, read, store, name); err != nil {
		return nil, nil, err
	}
	if fr.err != nil {
		return nil, nil, fr.err
	}
	fr.printNote(ctx, streams.ErrOut)
	return logSession(store, name, nil), a.kubeconfigObjects(), nil
}

func (o *fromLogsOptions) openTarget(ctx context.Context, a *attachOptions, streams genericiooptions.IOStreams, follow bool) (*inspector.Session, *describe.ObjectReader, error) {
	cfg, err := a.attachConfig()
	if err != nil {
		return nil, nil, err
	}
	cs, err := cluster.NewClientset(cfg.REST)
	if err != nil {
		return nil, nil, fmt.Errorf("kubeconfig: %w", err)
	}
	store := logs.NewStore(logs.Options{Live: true, ExplainLines: o.explainer(streams.ErrOut), Dialects: o.dialects})
	// Followed streams outlive this call (top): the session's Close stops them.
	streamCtx := ctx
	if follow {
		streamCtx = context.WithoutCancel(ctx)
	}
	stop, err := store.Follow(streamCtx, logs.StreamConfig{Clientset: cs, Target: cfg.Target, Namespace: cfg.Namespace, Since: o.since, Once: !follow})
	if err != nil {
		return nil, nil, fmt.Errorf("--from-logs: %w", err)
	}
	if !follow {
		st := store.Stats()
		printReadNote(streams.ErrOut, st, store.LogRead(), !st.EndsAt.IsZero(), time.Now(), o.dialects)
	}
	return logSession(store, cfg.Target.String(), stop), describe.NewObjectReader(cfg.REST, cs), nil
}

// oldLog is how far behind the clock a log's last line may be and still be
// read as "now": a log saved an hour ago or more is said to be dated.
const oldLog = time.Hour

// openFromLogs is top's openOrPick for --from-logs: the log is followed.
func (o *TopOptions) openFromLogs(ctx context.Context) (*inspector.Session, *describe.ObjectReader, []cluster.Pod, error) {
	s, objects, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, true)
	return s, objects, nil, err
}

// logSession puts the client in front of a log's store, as an endpoint
// named "logs: NAME" (what the header and errors show); stop (may be nil)
// is called by its Close.
func logSession(store *logs.Store, name string, stop func()) *inspector.Session {
	return inspector.InProcessSession(stop, inspector.NamedHandler{Name: inspector.LogSourcePrefix + name, Handler: store.Handler()})
}
