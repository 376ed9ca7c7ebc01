package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// DiffOptions are the options of `kubectl backoff diff`.
type DiffOptions struct {
	genericiooptions.IOStreams

	Output string
	// AllowUnread diffs what was read when a snapshot has a replica it
	// could not read (its keys are then unknown and left out).
	AllowUnread bool
	// MaxSnapshotSize is --max-snapshot-size: each file's bound.
	MaxSnapshotSize string

	before, after *snapshot.File
	// ctx ends the snapshots' reads (a FIFO's) on an interrupt.
	ctx context.Context
	// beforePath and afterPath are the files as the user named them.
	beforePath, afterPath string
	output                *outputFlags
}

// NewDiffCommand returns `kubectl backoff diff BEFORE AFTER`.
func NewDiffCommand(streams genericiooptions.IOStreams) *cobra.Command {
	o := &DiffOptions{IOStreams: streams}
	o.output = newOutputFlags(&o.Output, "")
	cmd := &cobra.Command{
		Use:   "diff BEFORE AFTER",
		Short: "Compare two snapshots: which keys started or stopped failing, grew, changed error, were reset",
		Long: `Compare two snapshots (kubectl backoff snapshot) and list the keys that started
failing, that stopped failing (or are no longer tracked), whose consecutive
failures grew, whose last error changed, and whose failure count was reset
while they kept failing. A key is failing while it has consecutive failures,
is failed, or backs off after a failed reconcile (a forget without --requeue
resets the count, not the failure).

BEFORE must be the earlier snapshot (diff refuses them reversed), and both
should come from the same kind of source: a snapshot of a log (--from-logs)
knows only the keys it logged, so against an endpoint's diff warns. A
snapshot with a replica it could not read is refused: the keys the other
lists and it does not may be that replica's, unknown rather than recovered
or new; --allow-unread diffs the rest and leaves them out.

CHANGE is one or two of:
  started-failing   not failing before (or not tracked), failing after
  stopped-failing   failing before, not after (or no longer tracked)
  failures-grew     failing in both, more consecutive failures after
  error-changed     failing in both, another last error after
  count-reset       failing in both, the failure count reset in between: a
                    forget (kubectl backoff forget) or the controller giving
                    up on the key; the count after is a new streak's`,
		Example: `  kubectl backoff diff before.json after.json

  # The keys that started failing, by name
  kubectl backoff diff before.json after.json -o jsonpath='{range .changes[?(@.changes[0]=="started-failing")]}{.key}{"\n"}{end}'`,
		Args: diffArgs,
		RunE: runE(o),
	}
	o.output.addFlags(cmd)
	addMaxSnapshotSize(cmd.Flags(), &o.MaxSnapshotSize)
	cmd.Flags().BoolVar(&o.AllowUnread, allowUnreadFlag, false, "Diff the replicas that were read when a snapshot has one it could not read (its keys are unknown: left out of the changes)")
	return cmd
}

// diffArgs names the snapshot that is missing and how to take it, where
// cobra's ExactArgs says "accepts 2 arg(s), received 1".
func diffArgs(_ *cobra.Command, args []string) error {
	const both = "diff compares two snapshots, BEFORE and AFTER"
	switch len(args) {
	case 2:
		return nil
	case 0:
		return fmt.Errorf("%s: got neither; take each with `kubectl backoff snapshot -f FILE`, then `kubectl backoff diff BEFORE AFTER`", both)
	case 1:
		return fmt.Errorf("%s: got only BEFORE %s; take AFTER with `kubectl backoff snapshot -f after.json`, then `kubectl backoff diff %s after.json`", both, args[0], args[0])
	}
	return fmt.Errorf("%s: got %d files (%s); give the earlier first", both, len(args), strings.Join(args, " "))
}

// allowUnreadFlag accepts a snapshot with an unread replica.
const allowUnreadFlag = "allow-unread"

func (o *DiffOptions) useContext(ctx context.Context) { o.ctx = ctx }

// Complete reads both snapshots and resolves the printer.
func (o *DiffOptions) Complete(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("diff takes two snapshot files, BEFORE and AFTER; got %d", len(args))
	}
	var err error
	if o.before, err = readSnapshot(o.ctx, "BEFORE", args[0], o.MaxSnapshotSize); err != nil {
		return err
	}
	if o.after, err = readSnapshot(o.ctx, "AFTER", args[1], o.MaxSnapshotSize); err != nil {
		return err
	}
	o.beforePath, o.afterPath = args[0], args[1]
	return o.output.complete()
}

// Validate refuses an AFTER taken before BEFORE: every change would read
// backwards ("stopped failing" for a key that started), so the user is
// told to swap the files rather than given a reversed answer.
func (o *DiffOptions) Validate() error {
	if o.after.TakenAt.Before(o.before.TakenAt) {
		return fmt.Errorf("AFTER %s was taken at %s, %s before BEFORE %s (%s): diff compares an earlier BEFORE to a later AFTER; swap them: kubectl backoff diff %s %s",
			o.afterPath, stamp(o.after), dur(o.before.TakenAt.Sub(o.after.TakenAt)), o.beforePath, stamp(o.before), o.afterPath, o.beforePath)
	}
	if msg := o.unreadText(); msg != "" && !o.AllowUnread {
		return fmt.Errorf("%s; take the snapshot again when every replica answers, or pass --%s to diff the replicas that were read", msg, allowUnreadFlag)
	}
	return nil
}

// unreadText names the replicas a snapshot could not read and how many
// keys are unknown for it, "" when every replica was read. Those keys are
// not "stopped failing → untracked": nothing was read of them.
func (o *DiffOptions) unreadText() string {
	var parts []string
	for _, side := range []struct {
		name, path string
		f          *snapshot.File
	}{{"BEFORE", o.beforePath, o.before}, {"AFTER", o.afterPath, o.after}} {
		for _, e := range side.f.Unread() {
			parts = append(parts, fmt.Sprintf("%s %s could not read replica %s (%s)", side.name, side.path, e.Name, oneLine(e.Error, 120)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s not listed there may be that replica's: unknown, neither recovered nor new, left out of the changes", strings.Join(parts, "; "),
		text.Plural(snapshot.Unknown(o.before, o.after), "key"))
}

// diffList is what -o json|yaml|jsonpath print.
type diffList struct {
	Before  string            `json:"before"`
	After   string            `json:"after"`
	Changes []snapshot.Change `json:"changes"`
}

// Run prints the changes.
func (o *DiffOptions) Run(context.Context) error {
	o.warnSources()
	if msg := o.unreadText(); msg != "" { // accepted by --allow-unread: still said
		fmt.Fprintf(o.ErrOut, "Warning: %s.\n", msg)
	}
	changes := snapshot.Diff(o.before, o.after)
	if changes == nil {
		changes = []snapshot.Change{}
	}
	if !o.output.text() {
		names := make([]string, len(changes))
		for i, c := range changes {
			names[i] = c.Key
		}
		l := diffList{Before: stamp(o.before), After: stamp(o.after), Changes: changes}
		return o.output.print(o.Out, l, kindKey, names...)
	}
	if len(changes) == 0 {
		// A header over nothing reads as a failed listing: say it, as
		// kubectl's "No resources found" does.
		later := dur(o.after.TakenAt.Sub(o.before.TakenAt)) + " later"
		if o.after.TakenAt.Equal(o.before.TakenAt) {
			later = "the same moment: the same snapshot?"
		}
		fmt.Fprintf(o.ErrOut, "No key changed from %s to %s (%s).\n", stamp(o.before), stamp(o.after), later)
		return nil
	}
	printChanges(o.Out, changes)
	counts := map[string]int{}
	for _, c := range changes {
		for _, x := range c.Changes {
			counts[x]++
		}
	}
	fmt.Fprintf(o.ErrOut, "From %s to %s (%s later): %d started failing, %d stopped, %d failing more, %d with another error, %d with the failure count reset.\n",
		stamp(o.before), stamp(o.after), dur(o.after.TakenAt.Sub(o.before.TakenAt)),
		counts[snapshot.Started], counts[snapshot.Stopped], counts[snapshot.Grew], counts[snapshot.ErrorChanged], counts[snapshot.CountReset])
	return nil
}

func stamp(f *snapshot.File) string { return text.Timestamp(f.TakenAt) }

// changeText is the change kinds, a reset with who reset the count when
// the key says: "count-reset (forget)", "count-reset (give-up)".
func changeText(c snapshot.Change) string {
	kinds := slices.Clone(c.Changes)
	if i := slices.Index(kinds, snapshot.CountReset); i >= 0 && c.After != nil && c.After.LastReset != nil && c.After.LastReset.By != "" {
		kinds[i] += " (" + c.After.LastReset.By + ")"
	}
	return strings.Join(kinds, ",")
}

// lastErrorText is k's last error on one line of at most width runes (0:
// whole), else fallback's, else <none>.
func lastErrorText(k, fallback *api.Key, width int) string {
	for _, x := range []*api.Key{k, fallback} {
		if x != nil && x.LastError != nil {
			return text.OneLineAtBreaks(x.LastError.Message, width)
		}
	}
	return "<none>"
}

func failures(k *api.Key) string {
	if k == nil {
		return "-"
	}
	return fmt.Sprint(k.Failures)
}

func keyState(k *api.Key) string {
	if k == nil {
		return "untracked"
	}
	return string(k.State)
}
