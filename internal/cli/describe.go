package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// DescribeOptions are the options of `kubectl backoff describe`.
type DescribeOptions struct {
	attachOptions
	genericiooptions.IOStreams

	Controller string
	Output     string
	// Watch is -w: the description again each time the key changes.
	Watch    bool
	key      string
	fromLogs fromLogsOptions
	output   *outputFlags
}

// NewDescribeCommand returns `kubectl backoff describe [TARGET] KEY`.
func NewDescribeCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	cmd, _ := newDescribeCommandOptions(cf, streams)
	return cmd
}

func newDescribeCommandOptions(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) (*cobra.Command, *DescribeOptions) {
	o := &DescribeOptions{attachOptions: newAttachOptions(cf), IOStreams: streams}
	o.addrReadsObjects = true   // a go run controller beside a kubeconfig: its objects are there
	o.waitNote = streams.ErrOut // "waiting for ADDR…": see waitingTransport
	o.output = newOutputFlags(&o.Output, "")
	cmd := &cobra.Command{
		Use:   "describe [TARGET] (KEY | --controller NAME)",
		Short: "Explain why a key is (not) being reconciled, or what a controller is going through",
		Long: `Explain one key in words: its state and why, the delay and which limiter chose it,
when the next retry is and the one after it, the attempt history (why each attempt
ran), and the object behind the key with its conditions and events.

Without --controller, the key is looked up in every controller.

With --controller and no KEY, diagnose the controller as a whole: its keys by state,
its limiter and token bucket, the errors of its failing keys and their class, the
retries to come, and what to do.`,
		Example: `  kubectl backoff describe deploy/my-controller default/my-widget

  # The demo, directly: one key, then the whole controller
  kubectl backoff describe --addr 127.0.0.1:8082 demo/outage-00001
  kubectl backoff describe --addr 127.0.0.1:8082 --controller outage

  # A key of a controller you can't change, from its log: a saved file (deploy/NAME
  # --from-logs streams its pods' logs; --from-logs - reads a pipe)
  kubectl backoff describe --from-logs demo.log default/w1`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Controller, "controller", o.Controller, "Controller of the key: "+controllerOfKeys)
	cmd.Flags().BoolVarP(&o.Watch, "watch", "w", o.Watch, "After the description, describe the key again each time it changes (a failure, a retry, a recovery): through the endpoint's watch where it offers one, else read again every second; with --from-logs, a log file is followed as it grows (tail -F), a TARGET's logs or - are not (top --from-logs follows them)")
	o.output.addFlags(cmd)
	return cmd, o
}

// Complete takes the target and the key from args, and resolves the
// printer and, unless --addr or a saved log says otherwise, kubeconfig and
// the namespace.
func (o *DescribeOptions) Complete(args []string) error {
	if err := o.complete(args); err != nil {
		return err
	}
	o.completeLogsCluster(&o.fromLogs, true)
	return o.output.complete()
}

func (o *DescribeOptions) complete(args []string) error {
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	if o.addrTarget != "" {
		rest = rest[1:] // not a key: Validate says it does not go with --addr
	}
	rest = o.fromLogs.complete(rest, &o.attachOptions)
	switch len(rest) {
	case 0:
		if o.Controller != "" {
			return nil // the controller's diagnosis
		}
		example := "kubectl backoff describe deploy/my-controller default/my-widget"
		switch src := o.fromLogs.source; {
		case src == fromTarget:
			example = "kubectl backoff describe deploy/my-controller --from-logs default/my-widget"
		case src != "":
			example = "kubectl backoff describe --from-logs " + explain.ShellQuote(src) + " default/my-widget"
		}
		return fmt.Errorf("describe needs a KEY, or --controller NAME for the controller's diagnosis, e.g. %s", example)
	case 1:
		o.key = keyArg(rest[0])
		return nil
	}
	return fmt.Errorf("describe takes one KEY, got %d: %s", len(rest), strings.Join(rest, " "))
}

// Validate checks the flags.
func (o *DescribeOptions) Validate() error {
	if o.Watch && o.key == "" {
		return fmt.Errorf("--watch follows a KEY: give one (get -w follows a controller's keys)")
	}
	if o.Watch && !o.output.text() {
		return fmt.Errorf("--watch prints the description: -o %s is not supported with it", o.Output)
	}
	if err := o.fromLogs.refuseWatch("describe", o.Watch, &o.attachOptions); err != nil {
		return err
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	return o.attachOptions.validate()
}

// Run describes the key.
func (o *DescribeOptions) Run(ctx context.Context) (err error) {
	defer func() { err = o.explainError(err) }()
	o.fromLogs.followFile = o.Watch // -w on a FILE: as it grows
	s, objects, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if o.key == "" {
		return o.describeController(ctx, s)
	}
	d, err := describe.Describe(ctx, s, o.Controller, o.key, objects)
	if k, ok := text.ReadBack(o.key); err != nil && ok {
		// A key with control characters, copied as get shows it escaped.
		if d2, err2 := describe.Describe(ctx, s, o.Controller, k, objects); err2 == nil {
			d, err = d2, nil
		}
	}
	if err != nil {
		return o.trackedBy(ctx, s, o.Controller, []string{o.key}, withControllerHint(err))
	}
	var run explain.Session
	if args := o.suggestArgs(); args != "" {
		// The commands it suggests act on this key: they name it, its
		// controller and how the user attached, so that they run as copied.
		run.Attach, run.Key, run.Controller = args, d.Key.Key.Key, d.Key.Controller
	}
	run.Target, run.LogFile = o.fromLogs.kickFrom(o.attachArgs())
	d.Diagnosis = d.Diagnosis.For(run)
	if !o.output.text() {
		return o.output.print(o.Out, d, kindKey, d.Key.Key.Key)
	}
	why := "the controller does not advertise its kind"
	if objects == nil {
		why = o.noObjects()
	}
	printDescription(o.Out, d, why)
	printLogNote(o.Out, d.Key.Key, d.Source, d.Controller, o.fromLogs.source == fromTarget)
	if o.Watch {
		return o.follow(ctx, s, objects, d, run, why)
	}
	return nil
}

// describeController prints the controller's full diagnosis.
func (o *DescribeOptions) describeController(ctx context.Context, s *inspector.Session) error {
	ds, err := describe.DiagnoseControllers(ctx, s, o.Controller)
	if err != nil {
		return err
	}
	run := explain.Session{Attach: o.suggestArgs()}
	run.Target, run.LogFile = o.fromLogs.kickFrom(o.attachArgs())
	ds[0] = ds[0].For(run)
	if !o.output.text() {
		return o.output.print(o.Out, ds[0], kindController, ds[0].Controller)
	}
	printControllerDiagnosis(o.Out, ds[0])
	return nil
}

// suggestArgs is how the user attached, for the commands a diagnosis
// suggests (forget): empty in log mode, where nothing can be forgotten.
func (o *DescribeOptions) suggestArgs() string {
	if o.fromLogs.enabled() {
		return ""
	}
	return o.attachArgs()
}
