package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// SnapshotOptions are the options of `kubectl backoff snapshot`.
type SnapshotOptions struct {
	attachOptions
	genericiooptions.IOStreams

	// File is where the snapshot goes; empty or "-" for stdout.
	File       string
	MaxDetails int
	fromLogs   fromLogsOptions
}

// NewSnapshotCommand returns `kubectl backoff snapshot [TARGET] [-f FILE]`.
func NewSnapshotCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &SnapshotOptions{attachOptions: newAttachOptions(cf), IOStreams: streams, MaxDetails: snapshot.DefaultMaxDetails}
	o.waitNote = streams.ErrOut // "waiting for ADDR…": see waitingTransport
	cmd := &cobra.Command{
		Use:   "snapshot [TARGET] [-f FILE]",
		Short: "Save every key's state in one file, for the incident ticket",
		Long: `Write one self-describing JSON file (kind BackoffSnapshot, formatVersion 1) with
the server's time, the controllers, every key (all pages), and the history of
the keys in backoff or failed, most failures first (at most --details of them).

Browse it later, offline and read-only, with kubectl backoff top --file FILE;
compare two with kubectl backoff diff BEFORE AFTER. (get -o json is one page of
keys, without the controllers or the histories: the snapshot is the record.)

With --from-logs, the keys come from the controller's log instead (an
uninstrumented controller): every key it logged, as get --from-logs reads them.`,
		Example: `  # During the incident, and after the fix
  kubectl backoff snapshot deploy/my-controller -f before.json
  kubectl backoff snapshot deploy/my-controller -f after.json
  kubectl backoff diff before.json after.json

  # The demo, directly, then browse it offline
  kubectl backoff snapshot --addr 127.0.0.1:8082 -f snap.json
  kubectl backoff top --file snap.json`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.File, "file", "f", o.File, "Write the snapshot to this file (default: stdout, when it is not a terminal)")
	cmd.Flags().IntVar(&o.MaxDetails, "details", o.MaxDetails, fmt.Sprintf("Keep the history of at most this many keys in backoff or failed (0-%d)", snapshot.MaxDetails))
	return cmd
}

// Complete takes the target from args and resolves kubeconfig and the
// namespace unless --addr is given.
func (o *SnapshotOptions) Complete(args []string) error {
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	rest = o.fromLogs.complete(rest, &o.attachOptions)
	if len(rest) > 0 && o.addrTarget == "" {
		return fmt.Errorf("snapshot takes at most a TARGET (KIND/NAME), not %q: it records every key", rest[0])
	}
	o.completeCluster(needsCluster(&o.fromLogs))
	return nil
}

// Validate checks the flags.
func (o *SnapshotOptions) Validate() error {
	if o.MaxDetails < 0 || o.MaxDetails > snapshot.MaxDetails {
		return fmt.Errorf("--details %d: must be between 0 and %d", o.MaxDetails, snapshot.MaxDetails)
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	if (o.File == "" || o.File == "-") && writerIsTerminal(o.Out) {
		// Thousands of lines of JSON scroll away unread, as tar's archive
		// would: tar refuses a terminal for the same reason.
		return fmt.Errorf("snapshot writes a JSON file of every key, not for reading on a terminal: give -f FILE (or redirect: > FILE); " +
			"to read keys here, use kubectl backoff get or top")
	}
	return o.attachOptions.validate()
}

// Run takes the snapshot and writes it: to a file, whole or not at all.
func (o *SnapshotOptions) Run(ctx context.Context) (err error) {
	defer func() { err = o.explainError(err) }()
	s, _, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, false)
	if err != nil {
		return err
	}
	defer s.Close()
	details := o.MaxDetails
	if details == 0 {
		details = -1 // none; the package's zero is its default
	}
	f, err := snapshot.Take(ctx, s, snapshot.TakeOptions{Source: o.source(), Tool: "kubectl-backoff " + version(), MaxDetails: details})
	if err != nil {
		return err
	}
	if err := o.write(f); err != nil {
		return err
	}
	keys, withDetail, omitted := 0, 0, 0
	for _, e := range f.Endpoints {
		keys, withDetail, omitted = keys+len(e.Keys), withDetail+len(e.Details), omitted+e.DetailsOmitted
		if e.Error != "" {
			fmt.Fprintf(o.ErrOut, "%s: not read: %s\n", e.Name, e.Error)
		}
	}
	fmt.Fprintf(o.ErrOut, "Snapshot taken at %s: %s keys, %s with their history", text.Timestamp(f.TakenAt), text.Thousands(keys), text.Thousands(withDetail))
	if omitted > 0 {
		fmt.Fprintf(o.ErrOut, " (%d more in backoff or failed without: --details)", omitted)
	}
	if o.File != "" && o.File != "-" {
		fmt.Fprintf(o.ErrOut, "; written to %s", o.File)
	}
	fmt.Fprintln(o.ErrOut, ".")
	return nil
}

// source names what was attached, for the file.
func (o *SnapshotOptions) source() string {
	switch {
	case o.fromLogs.enabled() && o.fromLogs.source != fromTarget:
		return "log " + o.fromLogs.source
	case o.fromLogs.enabled():
		return "log of " + o.target.String()
	case o.addr != "":
		return o.addr
	case !o.target.IsZero():
		return o.target.String()
	}
	return "discovered in " + o.cluster.Namespace
}

// write writes f to --file through a temporary file renamed into place, so
// that an interrupted snapshot never leaves half a file under the name.
func (o *SnapshotOptions) write(f *snapshot.File) error {
	if o.File == "" || o.File == "-" {
		return snapshot.Write(o.Out, f)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.File), ".snapshot-*.json")
	if err != nil {
		return fileError(o.File, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if err := snapshot.Write(tmp, f); err != nil {
		tmp.Close()
		return fileError(o.File, err)
	}
	if err := tmp.Close(); err != nil {
		return fileError(o.File, err)
	}
	if err := os.Rename(tmp.Name(), o.File); err != nil {
		return fileError(o.File, err)
	}
	return nil
}

// fileError says why --file could not be written, naming the user's path:
// the file is written beside it under a temporary name (.snapshot-….json)
// that the user never gave, so the operating system's error, which names
// that file, is said without it.
func fileError(path string, err error) error {
	if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
		return fmt.Errorf("--file %s: cannot write it: it is a directory; give a file name (e.g. %s)", path, filepath.Join(path, "snapshot.json"))
	}
	pe, ok := errors.AsType[*os.PathError](err)
	if !ok {
		if le, ok := errors.AsType[*os.LinkError](err); ok {
			err = le.Err
		}
		return fmt.Errorf("--file %s: cannot write it: %w", path, err)
	}
	dir := filepath.Dir(path)
	switch {
	case errors.Is(pe.Err, fs.ErrNotExist):
		return fmt.Errorf("--file %s: cannot write it: directory %s does not exist", path, dir)
	case errors.Is(pe.Err, fs.ErrPermission):
		return fmt.Errorf("--file %s: cannot write it: permission denied in directory %s", path, dir)
	}
	return fmt.Errorf("--file %s: cannot write it: %w", path, pe.Err)
}

// readSnapshot reads the snapshot at path, of at most maxSize (a
// Kubernetes quantity, "256Mi"; "" for snapshot.DefaultMaxBytes), naming
// flag in its errors, and --max-snapshot-size in that of a file too large.
//
// A file that is not regular (a FIFO: diff <(…) x.json) is opened and read
// apart, so that an interrupt (ctx) ends the wait for its writer or its
// end, as it ends a pipe's read in log mode; nil ctx never ends it.
func readSnapshot(ctx context.Context, flag, path, maxSize string) (*snapshot.File, error) {
	limit, err := snapshotLimit(maxSize)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err != nil || st.Mode().IsRegular() || ctx == nil {
		return readSnapshotFile(flag, path, limit)
	}
	type result struct {
		f   *snapshot.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := readSnapshotFile(flag, path, limit)
		done <- result{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
		// The read is left blocked on the FIFO; the process is exiting.
		return nil, fmt.Errorf("%s %s: %w before its end", flag, path, ErrInterrupted)
	}
}

// readSnapshotFile reads the snapshot at path, of at most limit bytes.
func readSnapshotFile(flag, path string, limit int64) (*snapshot.File, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	defer in.Close()
	f, err := snapshot.ReadLimit(in, limit)
	if tl, ok := errors.AsType[*snapshot.TooLargeError](err); ok {
		size, need := "larger", 2*tl.Limit
		if st, serr := in.Stat(); serr == nil && st.Mode().IsRegular() {
			size, need = snapshot.SizeText(st.Size()), max(need, st.Size())
		}
		return nil, fmt.Errorf("%s %s: %s, past the %s a snapshot is read with; if it is one, raise the bound: --%s %dMi",
			flag, path, size, snapshot.SizeText(tl.Limit), maxSnapshotSizeFlag, (need+1<<20-1)>>20)
	}
	if errors.Is(err, snapshot.ErrLog) {
		return nil, fmt.Errorf("%s %s: not a snapshot (it looks like a log: use get --from-logs)", flag, path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return f, nil
}

// maxSnapshotSizeFlag bounds the snapshots diff and top --file read.
const maxSnapshotSizeFlag = "max-snapshot-size"

// addMaxSnapshotSize adds --max-snapshot-size, bound to v.
func addMaxSnapshotSize(fs *pflag.FlagSet, v *string) {
	fs.StringVar(v, maxSnapshotSizeFlag, "256Mi", "Refuse a snapshot file larger than this (a quantity: 512Mi, 2Gi): it is held in memory whole")
}

// snapshotLimit is --max-snapshot-size in bytes.
func snapshotLimit(s string) (int64, error) {
	if s == "" {
		return snapshot.DefaultMaxBytes, nil
	}
	q, err := resource.ParseQuantity(s)
	if err != nil || q.Sign() <= 0 {
		return 0, fmt.Errorf("--%s %q: give a positive size, as 256Mi or 2Gi", maxSnapshotSizeFlag, s)
	}
	return q.Value(), nil
}

// completeFile reads top's --file, if given (and given alone: Validate
// says what does not go with it).
func (o *TopOptions) completeFile() error {
	if o.file == "" || o.validateFile() != nil {
		return nil
	}
	var err error
	o.snap, err = readSnapshot(o.ctx, "--file", o.file, o.maxSnapshotSize)
	return err
}

// runFile is top --file: the snapshot browsed offline, read-only, with the
// time it was taken in the header.
func (o *TopOptions) runFile(ctx context.Context) error {
	f := o.snap
	s := inspector.InProcessSession(nil, snapshot.Handlers(f)...)
	if err := o.preflight(ctx, s); err != nil {
		return err
	}
	return ui.Run(ctx, ui.Options{
		Session: s, Refresh: o.Refresh,
		Controller: o.Controller, States: parseStates(o.States), Filter: o.Filter,
		NoObjects: "browsing a snapshot (--file): the object is not in it",
	})
}

// validateFile checks that --file comes alone: a snapshot is its own source.
func (o *TopOptions) validateFile() error {
	if o.file == "" {
		return nil
	}
	if o.addr != "" || !o.target.IsZero() || o.allNamespaces || o.fromLogs.enabled() {
		return fmt.Errorf("--file %s browses a snapshot: drop the TARGET, --addr, -l, -A and --from-logs", o.file)
	}
	return nil
}
