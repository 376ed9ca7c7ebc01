package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// GetOptions are the options of `kubectl backoff get`.
type GetOptions struct {
	attachOptions
	genericiooptions.IOStreams

	Output     string
	States     []string
	Controller string
	Filter     string
	Sort       string
	// sortDefaulted is set when --sort was not given: the default order
	// may then fall back to an older one an endpoint knows.
	sortDefaulted bool
	Limit         int
	ChunkSize     int
	GroupBy       string
	// Watch is -w: after the list, the rows that change, as they change.
	Watch bool

	keys     []string
	query    inspector.KeyQuery // the selection listed, for -w
	fromLogs fromLogsOptions
	output   *outputFlags
	// isTerminal says whether ErrOut is a terminal, where the controllers'
	// diagnosis goes; tests replace it.
	isTerminal func(io.Writer) bool
}

// defaultChunkSize is kubectl's --chunk-size default.
const defaultChunkSize = 500

// groupByError is --group-by error: the keys' last errors grouped on the
// server (v1/errors), with exact counts.
const groupByError = "error"

// groupBys are the values --group-by takes.
var groupBys = []string{groupByError}

// NewGetCommand returns `kubectl backoff get [TARGET] [KEY...]`.
func NewGetCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	return newGetCommand(cf, streams, writerIsTerminal)
}

// newGetCommand is NewGetCommand with the terminal test given.
func newGetCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams, isTerminal func(io.Writer) bool) *cobra.Command {
	cmd, _ := newGetCommandOptions(cf, streams, isTerminal)
	return cmd
}

// newGetCommandOptions is newGetCommand with the options it binds.
func newGetCommandOptions(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams, isTerminal func(io.Writer) bool) (*cobra.Command, *GetOptions) {
	o := &GetOptions{attachOptions: newAttachOptions(cf), IOStreams: streams, Limit: api.DefaultLimit, ChunkSize: defaultChunkSize, isTerminal: isTerminal}
	o.waitNote = streams.ErrOut // "waiting for ADDR…": see waitingTransport
	o.output = newOutputFlags(&o.Output, "", "wide")
	cmd := &cobra.Command{
		Use:   "get [TARGET] [KEY...]",
		Short: "List keys and their backoff state, or their errors grouped (--group-by error)",
		// Near misses cobra's "unknown command" then answers with get.
		SuggestFor: []string{"list", "ls", "group", "keys"},
		Long: `List the keys a controller tracks: state, consecutive failures, the next retry
and the delay that chose it, and the last error. stdout is the table alone (or
what -o asks for). When stderr is a terminal, one line per controller with
matching keys diagnoses it as a whole, on stderr before the table (describe
--controller NAME says it in full, anywhere). -o wide adds the error's
class (transient, permanent, unknown), the counters, and the whole last error;
-o json, yaml, name, jsonpath=… and go-template=… print as kubectl's do, over
the wire API's field names (items[*].key, .failures, .lastError.message).

--group-by error groups the keys' last errors instead, on the server: one row per
controller and error (numbers, addresses and names folded), with exact counts,
largest first, of the keys still failing (backoff and failed), as top's g does:
a key that recovered keeps its last error, and --state backoff,failed,idle
adds those.
--controller narrows it, --state chooses the states, --limit keeps the largest
groups.

TARGET is pod/NAME, deploy/NAME, sts/NAME or rs/NAME; without one, instrumented pods
(a container port named "backoff") are discovered in the namespace; with -A,
every instrumented pod in the cluster (at most 50; -l narrows) is read, and
the table leads with each key's NAMESPACE and POD.`,
		Example: `  # Keys in backoff, most failures first
  kubectl backoff get deploy/my-controller --state backoff --sort failures

  # Two keys, as JSON for an incident ticket
  kubectl backoff get deploy/my-controller default/w1 default/w2 -o json

  # The demo, directly
  kubectl backoff get --addr 127.0.0.1:8082 -q outage

  # A controller you can't change, from its own log: a saved file (deploy/NAME --from-logs
  # streams its pods' logs, --since 2h goes further back; --from-logs - reads a pipe)
  kubectl backoff get --from-logs demo.log --state backoff

  # What the failing keys fail with, largest group first
  kubectl backoff get --addr 127.0.0.1:8082 --group-by error

  # Just the keys, and their failure counts (as kubectl's -o name and -o jsonpath)
  kubectl backoff get --addr 127.0.0.1:8082 --state backoff -o name
  kubectl backoff get --addr 127.0.0.1:8082 --sort failures --limit 3 -o jsonpath='{range .items[*]}{.key}{" "}{.failures}{"\n"}{end}'`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	o.output.addFlags(cmd)
	cmd.Flags().StringSliceVar(&o.States, "state", o.States, "Only keys in these states: "+stateHelp+" (with --group-by error, "+stateList(explain.FailingStates)+" unless given: the keys still failing; with --from-logs "+stateList(explain.ErrorStates(true))+")")
	cmd.Flags().StringVar(&o.Controller, "controller", o.Controller, "Only keys of this controller")
	cmd.Flags().StringVarP(&o.Filter, "filter", "q", o.Filter, "Only keys whose name or last error contains this (a leading ~ makes it a regular expression)")
	cmd.Flags().StringVar(&o.Sort, "sort", o.Sort, "Sort by "+api.SortNames()+" (default retrying: backing-off keys first, the longest failing on top, then queued, then failed with a terminal error)")
	cmd.Flags().IntVar(&o.Limit, "limit", o.Limit, fmt.Sprintf("At most this many keys (stderr says how many more matched); 0 for all: past %d they are read --chunk-size at a time, and every key is held in memory (the endpoint keeps at most 100,000 a controller by default); with --group-by error, this many groups (1-%d), the largest", api.MaxLimit, api.MaxLimit))
	cmd.Flags().IntVar(&o.ChunkSize, "chunk-size", o.ChunkSize, fmt.Sprintf("With --limit 0 or over %d: read the keys this many a request (1-%d), following the endpoint's continue token, as kubectl's --chunk-size", api.MaxLimit, api.MaxLimit))
	cmd.Flags().BoolVarP(&o.Watch, "watch", "w", o.Watch, "After listing, print the keys that change as they change, as kubectl's --watch (with -o json or yaml, one object per key and per change): through the endpoint's watch where it offers one, else read again every second; with --from-logs, a log file is followed as it grows (tail -F), a TARGET's logs or - are not (top --from-logs follows them)")
	cmd.Flags().StringVar(&o.GroupBy, "group-by", o.GroupBy, "Group the keys instead of listing them: "+strings.Join(groupBys, ", ")+" (the last errors of the keys still failing, or of --state, counted on the server)")
	return cmd, o
}

// Complete takes the target and keys from args, and resolves the printer
// and, unless --addr or a saved log says otherwise, kubeconfig and the
// namespace.
func (o *GetOptions) Complete(args []string) error {
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	o.keys = keyArgs(o.fromLogs.complete(rest, &o.attachOptions))
	o.completeLogsCluster(&o.fromLogs, true)
	if o.Sort == "" && o.GroupBy == "" {
		o.Sort, o.sortDefaulted = api.SortRetrying, true
	}
	return o.output.complete()
}

// Validate checks every flag, naming the one at fault.
func (o *GetOptions) Validate() error {
	if err := o.validateGroupBy(); err != nil {
		return err
	}
	if err := validateSelection(o.States, o.Filter); err != nil {
		return err
	}
	if err := validateSort(o.Sort); o.GroupBy == "" && err != nil {
		return err
	}
	switch {
	case o.GroupBy != "" && (o.Limit < 1 || o.Limit > api.MaxLimit):
		return fmt.Errorf("--limit %d: with --group-by, must be between 1 and %d groups", o.Limit, api.MaxLimit)
	case o.Limit < 0:
		return fmt.Errorf("--limit %d: must be 0 (all) or more", o.Limit)
	case o.ChunkSize < 1 || o.ChunkSize > api.MaxLimit:
		return fmt.Errorf("--chunk-size %d: must be between 1 and %d", o.ChunkSize, api.MaxLimit)
	}
	if o.Watch {
		switch {
		case o.GroupBy != "":
			return fmt.Errorf("--watch follows keys: leave --group-by out")
		case o.Limit == 0 || o.Limit > api.MaxLimit:
			return fmt.Errorf("--watch follows one page: --limit must be between 1 and %d", api.MaxLimit)
		case len(o.keys) > 0:
			return fmt.Errorf("--watch follows a selection: give --filter/--state, or describe -w KEY")
		}
	}
	if len(o.keys) > 0 && (o.Filter != "" || len(o.States) > 0) {
		return fmt.Errorf("give KEYs or --filter/--state, not both")
	}
	if err := o.fromLogs.refuseWatch("get", o.Watch, &o.attachOptions); err != nil {
		return err
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	return o.attachOptions.validate()
}

// Run prints the keys.
func (o *GetOptions) Run(ctx context.Context) (err error) {
	defer func() { err = o.explainError(err) }()
	o.fromLogs.followFile = o.Watch // -w on a FILE: as it grows
	s, _, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if o.GroupBy == groupByError {
		return o.runErrors(ctx, s)
	}
	var list *inspector.KeyList
	var q inspector.KeyQuery
	if len(o.keys) > 0 {
		list, err = o.getKeys(ctx, s)
	} else {
		q = inspector.KeyQuery{Controller: o.Controller, Q: o.Filter, States: parseStates(o.States), Sort: o.Sort, Limit: o.Limit}
		for {
			if o.Limit == 0 || o.Limit > api.MaxLimit {
				// One page cannot hold them: follow continue, a chunk at a time.
				list, err = s.AllKeys(ctx, q, o.ChunkSize)
			} else {
				list, err = s.Keys(ctx, q)
			}
			// The default order, refused by an endpoint older than it: the
			// one before it (retrying, then attention, then next).
			older, ok := inspector.OlderSort(q.Sort)
			if !o.sortDefaulted || !ok || !inspector.SortRefused(err, q.Sort) {
				break
			}
			q.Sort = older
		}
	}
	if err != nil {
		return err
	}
	// Cluster-wide (-A): what was left out, and who did not answer, is said
	// on stderr; the keys of the pods that did are the answer.
	if note := s.CapNote(); note != "" {
		fmt.Fprintln(o.ErrOut, "Warning: "+note+" ("+narrowFlags+")")
	}
	for _, u := range list.Unreachable {
		fmt.Fprintln(o.ErrOut, "Warning: unreachable: "+u)
	}
	// A list cut by --limit says so in every format, on stderr: stdout stays
	// what -o promises, and a script piping -o name into forget would
	// otherwise act on the first page only, unawares.
	defer func() {
		if err == nil && list.Matched > len(list.Items) {
			fmt.Fprintf(o.ErrOut, "Showing %d of %d matching keys (--limit).\n", len(list.Items), list.Matched)
		}
	}()
	if !o.output.text() && !o.Watch {
		names := make([]string, len(list.Items))
		for i, k := range list.Items {
			names[i] = k.Key.Key
		}
		return o.output.print(o.Out, list, kindKey, names...)
	}
	if len(list.Items) == 0 {
		// As kubectl's "No resources found": no header, and the note on
		// stderr, so that a script reading stdout sees nothing.
		fmt.Fprintf(o.ErrOut, "No keys matched (%d tracked).\n", list.Total)
		return nil
	}
	if len(o.keys) == 0 && o.isTerminal(o.ErrOut) {
		o.printDiagnoses(ctx, s, list)
	}
	if !o.Watch {
		printKeysFit(o.Out, list, o.Output == "wide", s.ClusterWide(), screenWidth(o.Out))
		return nil
	}
	o.query = q // the selection listed is the one followed
	return o.follow(ctx, s, list)
}

// printDiagnoses says, on stderr, why before the table says what: a line
// per controller with keys that -q and --state select (--controller
// names one), so they narrow it as they narrow the table; --limit cuts
// the table, not the answer. It is an aid for the eye, as kubectl's
// warnings are: stdout stays the table that | grep and | awk read, and a
// stderr that is not a terminal (2>file, a CI log) gets none, for describe
// --controller says it in full there. A failure to diagnose leaves the
// table as it was.
func (o *GetOptions) printDiagnoses(ctx context.Context, s *inspector.Session, list *inspector.KeyList) {
	ds, err := describe.DiagnoseControllers(ctx, s, o.Controller)
	if err != nil {
		return
	}
	if o.Filter != "" || len(o.States) > 0 {
		listed := map[string]bool{}
		for _, k := range list.Items {
			listed[k.Controller] = true
		}
		cut := list.Matched > len(list.Items)
		ds = slices.DeleteFunc(ds, func(d explain.ControllerDiagnosis) bool {
			if listed[d.Controller] || !cut {
				return !listed[d.Controller]
			}
			// Left out by --limit, maybe: one key of it says.
			l, err := s.Keys(ctx, inspector.KeyQuery{Controller: d.Controller, Q: o.Filter, States: parseStates(o.States), Limit: 1})
			return err != nil || l.Matched == 0
		})
	}
	printDiagnoses(o.ErrOut, ds)
}

func (o *GetOptions) getKeys(ctx context.Context, s *inspector.Session) (*inspector.KeyList, error) {
	out := &inspector.KeyList{Items: []inspector.PodKey{}}
	for _, k := range o.keys {
		c := o.Controller
		if c == "" {
			var err error
			if c, err = findController(ctx, s, k); err != nil {
				return nil, err
			}
		}
		d, err := s.Key(ctx, c, k)
		if err != nil {
			return nil, o.trackedBy(ctx, s, o.Controller, []string{k}, err)
		}
		out.ServerTime = d.ServerTime
		out.Items = append(out.Items, inspector.PodKey{Key: d.Key, Pod: d.Pod})
	}
	out.Matched, out.Total = len(out.Items), len(out.Items)
	return out, nil
}

func validateSort(s string) error {
	if slices.Contains(api.Sorts, s) {
		return nil
	}
	return fmt.Errorf("--sort %q: use %s", s, api.SortNames())
}
