package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// minRefresh is the shortest --refresh: faster only loads the endpoint.
const minRefresh = 100 * time.Millisecond

// TopOptions are the options of `kubectl backoff top`.
type TopOptions struct {
	attachOptions
	genericiooptions.IOStreams

	Refresh    time.Duration
	Controller string
	States     []string
	Filter     string
	// For is --for TYPE: the objects of a kind that are not Current, live.
	For string

	fromLogs fromLogsOptions
	// file is --file: a snapshot to browse offline; snap is it, read.
	file string
	snap *snapshot.File
	// maxSnapshotSize is --max-snapshot-size: --file's bound.
	maxSnapshotSize string
	// ctx ends --file's read (a FIFO's) on an interrupt.
	ctx context.Context
	// forArgs are the arguments given with --for, which takes none.
	forArgs []string
	// controllerLog is --controller-log: with --for and --from-logs FILE,
	// whose log it is, as why TYPE takes it.
	controllerLog string
}

// NewTopCommand returns `kubectl backoff top [TARGET]`.
func NewTopCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &TopOptions{attachOptions: newAttachOptions(cf), IOStreams: streams, Refresh: time.Second}
	cmd := &cobra.Command{
		Use:   "top [TARGET]",
		Short: "Watch keys back off, live, and force-forget them",
		Long: `A live view of a controller's keys: state, failures, a countdown to the next
retry, the delay and the limiter that chose it, and the last error; the limiter's
bucket and a forecast of the keys falling due (retries and re-checks) in the next minute. Enter
explains a key, g groups keys by error, f and r forget or retry (after a y/N).

TARGET is pod/NAME, deploy/NAME, sts/NAME or rs/NAME; without one, instrumented pods
(a container port named "backoff") are discovered in the namespace, and when
there are several, top lists them for you to pick one. With -A (and -l to
narrow), top attaches to every instrumented pod in the cluster, at most 50,
and shows their keys in one table with a NAMESPACE/POD column: tab switches
controller, and a pod out of reach is a row in the header.

With --for TYPE, top starts from the objects instead: the objects of the kind
(in the namespace, or with -A in all) that are not Current, the longest-waiting
change first, with the controller and its backoff for each, as
` + "`kubectl backoff why TYPE`" + ` lists them, refreshed live (at most every 5s);
enter shows an object's answer, and, when its controller is instrumented,
enter again opens the key's detail (esc comes back). With --addr ADDR (a
controller run outside the cluster) or --from-logs FILE (its log, read again
on each refresh), each object's key is read there, as why TYPE reads it.`,
		Example: `  # The controller of a deployment
  kubectl backoff top deploy/my-controller

  # Only keys in backoff whose error mentions "timeout", refreshed every 2s
  kubectl backoff top deploy/my-controller --state backoff -q timeout --refresh 2s

  # An endpoint reachable directly
  kubectl backoff top --addr 127.0.0.1:8082

  # A controller you can't change, from its log: a file, followed as it grows (tail -F);
  # deploy/NAME --from-logs streams its pods' logs; kubectl logs -f … | kubectl backoff
  # top --from-logs - follows a pipe
  kubectl backoff top --from-logs demo.log

  # A snapshot, offline and read-only (kubectl backoff snapshot -f snap.json)
  kubectl backoff top --file snap.json

  # Every Certificate whose change is not reconciled yet, live
  kubectl backoff top --for certificates -A

  # The ConfigMaps an operator run with go run is failing on, live
  kubectl backoff top --for configmaps -n widgets --addr http://127.0.0.1:8082`,
		Args: cobra.MaximumNArgs(1),
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().DurationVar(&o.Refresh, "refresh", o.Refresh, "How often to refresh (at least 100ms)")
	cmd.Flags().StringVar(&o.Controller, "controller", o.Controller, "Start on this controller (tab switches)")
	cmd.Flags().StringSliceVar(&o.States, "state", o.States, "Start with only keys in these states: "+stateHelp)
	cmd.Flags().StringVarP(&o.Filter, "filter", "q", o.Filter, "Start filtered: keys whose name or last error contains this (a leading ~ makes it a regular expression)")
	cmd.Flags().StringVar(&o.file, "file", o.file, "Browse a snapshot (kubectl backoff snapshot) offline, read-only")
	addMaxSnapshotSize(cmd.Flags(), &o.maxSnapshotSize)
	cmd.Flags().StringVar(&o.For, "for", o.For, "Start from the objects of this `TYPE` that are not Current, live, as kubectl backoff why TYPE lists them (-n or -A)")
	cmd.Flags().StringVar(&o.controllerLog, "controller-log", o.controllerLog, "With --for and --from-logs FILE: whose log it is, as kubectl backoff why takes it (kube-controller-manager, as managedFields name it)")
	return cmd
}

func (o *TopOptions) useContext(ctx context.Context) { o.ctx = ctx }

// Complete takes the target from args.
func (o *TopOptions) Complete(args []string) error {
	if o.For != "" {
		// --from-logs FILE, spaced, is --from-logs and an argument (its
		// NoOptDefVal streams a TARGET's logs): the file, as without --for.
		o.forArgs = o.fromLogs.complete(args, &o.attachOptions) // the rest refused by Validate, by name
		return nil
	}
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	if rest = o.fromLogs.complete(rest, &o.attachOptions); len(rest) > 0 {
		return fmt.Errorf("top takes at most a TARGET (KIND/NAME), not %q", rest[0])
	}
	o.completeLogsCluster(&o.fromLogs, o.file == "")
	return o.completeFile()
}

// Validate checks every flag, naming the one at fault.
func (o *TopOptions) Validate() error {
	if o.Refresh <= 0 {
		return fmt.Errorf("--refresh %v: must be positive", o.Refresh)
	}
	if o.Refresh < minRefresh {
		return fmt.Errorf("--refresh %v: must be at least %v", o.Refresh, minRefresh)
	}
	if o.For != "" {
		return o.validateFor(o.forArgs)
	}
	if o.controllerLog != "" {
		return fmt.Errorf("--controller-log names whose log --from-logs FILE is for the objects of --for TYPE: give --for TYPE (without it, top shows every controller the log names)")
	}
	if err := validateSelection(o.States, o.Filter); err != nil {
		return err
	}
	if err := o.validateFile(); err != nil {
		return err
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	if err := explainLinesOnScreen(o.fromLogs.explainLines, writerIsTerminal(o.ErrOut)); err != nil {
		return err
	}
	return o.attachOptions.validate()
}

// errNoTerminal is top's answer when it has no terminal to draw on.
var errNoTerminal = errors.New("top needs a terminal; use `kubectl backoff get`")

// Run attaches and runs the UI until the user quits. When discovery finds
// several pods, the UI opens on a picker of them instead of failing as get
// does: top has a terminal to ask on, and the user sees what was found.
// What the endpoint refuses (an unknown --controller, a -q it cannot take)
// is refused here, before the UI opens, with the message get prints.
func (o *TopOptions) Run(ctx context.Context) error {
	if out, ok := o.Out.(*os.File); !ok || !isTerminal(out) {
		if o.For != "" {
			all := ""
			if o.allNamespaces {
				all = " -A"
			}
			return fmt.Errorf("top needs a terminal; use `kubectl backoff why %s%s` (the same list, printed once)", o.For, all)
		}
		return errNoTerminal
	}
	var keys io.Reader // stdin
	if !isTerminal(o.In) {
		// A log piped in (kubectl logs … | top --from-logs -) takes stdin:
		// the keys come from the terminal, as less reads them.
		tty, ttyOut, err := tea.OpenTTY()
		if err != nil {
			return fmt.Errorf("top reads keys from the terminal: stdin is not one, and %w; use `kubectl backoff get`", err)
		}
		defer tty.Close()
		if ttyOut != tty {
			ttyOut.Close() // the screen is stdout; only keys are read from it
		}
		keys = tty
	}
	if o.For != "" {
		return o.runFor(ctx, keys)
	}
	if o.file != "" {
		return o.runFile(ctx)
	}
	open := o.openOrPick
	if o.fromLogs.enabled() {
		open = o.openFromLogs
	}
	s, objects, pods, err := open(ctx)
	if err != nil {
		return o.explainError(err)
	}
	if s != nil {
		defer s.Close()
		if err := o.preflight(ctx, s); err != nil {
			return err
		}
	}
	opts := ui.Options{
		Session: s, Objects: objects, Refresh: o.Refresh, Input: keys,
		Controller: o.Controller, States: parseStates(o.States), Filter: o.Filter,
		User: o.requester(),
		// A connection refused says what to try while the UI still
		// retries, not only once it gives up.
		Explain: o.explainError,
		// A live endpoint's page is watched where it offers a watch
		// (polled where not: older endpoints, logs read in process).
		Watch:  true,
		Narrow: narrowFlags,
	}
	if pods != nil {
		opts.Pods, opts.Attach = pods, o.attachPod
	}
	opts.LogAt.Target, opts.LogAt.LogFile = o.fromLogs.kickFrom(o.attachArgs())
	switch {
	case o.fromLogs.enabled() && o.fromLogs.source != fromTarget:
		// A log file or stdin: no cluster is attached, no namespace read.
	case o.addr == "":
		opts.Context, opts.Namespace = o.kubeContext()
		opts.Chain = o.chainWalker()
	default:
		opts.NoObjects = o.noObjects()
	}
	// An endpoint never reached ends the UI with its last call's error,
	// said as get says it.
	return o.explainError(ui.Run(ctx, opts))
}

// preflight asks the endpoint for one key of the selection the flags make,
// as get would, and returns what the endpoint refuses. A connection problem
// is left to the UI, which shows it, retries, and gives up in time.
func (o *TopOptions) preflight(ctx context.Context, s *inspector.Session) error {
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	_, err := s.Keys(ctx, inspector.KeyQuery{Controller: o.Controller, Q: o.Filter, States: parseStates(o.States), Limit: 1})
	if _, refused := errors.AsType[*inspector.APIError](err); refused {
		return o.explainError(err) // in get's words
	}
	return nil
}

// preflightTimeout bounds the preflight: an endpoint slower than this is
// the UI's to show.
const preflightTimeout = 5 * time.Second

// openOrPick attaches as open does, but returns the pods discovery found,
// rather than printing them, when it found several and no TARGET says which.
func (o *TopOptions) openOrPick(ctx context.Context) (*inspector.Session, *describe.ObjectReader, []cluster.Pod, error) {
	s, objects, err := o.attach(ctx)
	if many, ok := errors.AsType[*inspector.MultiplePodsError](err); ok {
		return nil, nil, many.Pods, nil
	}
	return s, objects, nil, err
}

// attachPod attaches to the pod picked, on the port discovery found it
// listening on, as `top pod/NAME -n NAMESPACE --port PORT` would.
func (o *TopOptions) attachPod(ctx context.Context, pod cluster.Pod) (*inspector.Session, *describe.ObjectReader, error) {
	cfg, err := o.attachConfig()
	if err != nil {
		return nil, nil, err
	}
	cfg.Target = cluster.Target{Kind: cluster.KindPod, Name: pod.Name}
	cfg.Namespace, cfg.AllNamespaces = pod.Namespace, false
	cfg.Port = cluster.PortSpec(strconv.Itoa(pod.Port))
	return describe.Attach(ctx, cfg)
}

// kubeContext names the kubeconfig context and namespace, for the header.
func (o *TopOptions) kubeContext() (string, string) {
	loader := o.configFlags.ToRawKubeConfigLoader()
	ns, _, _ := loader.Namespace()
	if o.allNamespaces {
		ns = "all"
	}
	ctxName := ""
	if o.configFlags.Context != nil && *o.configFlags.Context != "" {
		ctxName = *o.configFlags.Context
	} else if raw, err := loader.RawConfig(); err == nil {
		ctxName = raw.CurrentContext
	}
	return ctxName, ns
}
