package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
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
  kubectl backoff describe --addr 127.0.0.1:8082 --controller outage`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Controller, "controller", o.Controller, "Controller of the key: "+controllerOfKeys)
	cmd.Flags().BoolVarP(&o.Watch, "watch", "w", o.Watch, "After the description, describe the key again each time it changes (a failure, a retry, a recovery): through the endpoint's watch where it offers one, else read again every second")
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
	o.completeCluster(needsCluster(&o.fromLogs))
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
			example = "kubectl backoff describe --from-logs " + shellQuote(src) + " default/my-widget"
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
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	return o.attachOptions.validate()
}

// Run describes the key.
func (o *DescribeOptions) Run(ctx context.Context) (err error) {
	defer func() { err = o.explainError(err) }()
	s, objects, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if o.key == "" {
		return o.describeController(ctx, s)
	}
	d, err := describe.Describe(ctx, s, o.Controller, o.key, objects)
	if k, ok := unescapeKey(o.key); err != nil && ok {
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
		run.Attach = args + " " + shellQuote(d.Key.Key.Key) + " --controller " + shellQuote(d.Key.Controller)
	}
	if o.fromLogs.source == fromTarget {
		// The log was the TARGET's: kick, which the diagnosis suggests
		// for a log's key, takes the same TARGET.
		run.Target = o.attachArgs()
	}
	d.Diagnosis = d.Diagnosis.For(run)
	if !o.output.text() {
		return o.output.print(o.Out, d, kindKey, d.Key.Key.Key)
	}
	why := "the controller does not advertise its kind"
	if objects == nil {
		why = o.noObjects()
	}
	printDescription(o.Out, d, why)
	printLogNote(o.Out, d.Key.Key, d.Source)
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
	ds[0] = ds[0].For(explain.Session{Attach: o.suggestArgs()})
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

// controllerOfKeys is what --controller does for commands that take KEYs
// (describe, forget): findController finds it otherwise.
const controllerOfKeys = "only needed when a KEY is tracked by several controllers: without it, each KEY goes to the controller that tracks it"

// findController is the controller that tracks key, found across them all
// as describe does when --controller is not given.
func findController(ctx context.Context, s *inspector.Session, key string) (string, error) {
	c, err := s.FindKey(ctx, key)
	return c, withControllerHint(err)
}

// trackedBy adds to a controller's 404 for keys the other controllers of
// the endpoint that track them: --controller named the wrong one. The
// error comes back in explainError's words, since the hint is not the
// endpoint's.
func (o *attachOptions) trackedBy(ctx context.Context, s *inspector.Session, controller string, keys []string, err error) error {
	if ae, ok := errors.AsType[*inspector.APIError](err); !ok || ae.Code != http.StatusNotFound || controller == "" {
		return err
	}
	var others, found []string // the other controllers, and "KEY by CONTROLLER"
	for _, k := range keys {
		c, ferr := s.FindKey(ctx, k)
		have := []string{c}
		if amb, ok := errors.AsType[*inspector.AmbiguousKeyError](ferr); ok {
			have = amb.Controllers
		} else if ferr != nil {
			continue
		}
		have = slices.DeleteFunc(have, func(c string) bool { return c == controller })
		for _, c := range have {
			if !slices.Contains(others, c) {
				others = append(others, c)
			}
		}
		if len(have) > 0 {
			found = append(found, k+" by "+strings.Join(have, ", "))
		}
	}
	what := "tracked by " + strings.Join(others, ", ")
	if len(keys) > 1 {
		what = "tracked elsewhere: " + strings.Join(found, "; ")
	}
	switch len(others) {
	case 0:
		return o.namespacedHint(ctx, s, controller, keys, err)
	case 1:
		return fmt.Errorf("%v (%s: --controller %s)", o.explainError(err), what, others[0])
	}
	return fmt.Errorf("%v (%s: drop --controller, and each key's is found)", o.explainError(err), what)
}

// namespacedHint adds to a controller's 404 for one key given without its
// namespace the key it most likely meant: the one key of that controller
// that ends so (naive-00001 for demo/naive-00001). -n selects the pods to
// attach to; it does not qualify keys.
func (o *attachOptions) namespacedHint(ctx context.Context, s *inspector.Session, controller string, keys []string, err error) error {
	if len(keys) != 1 || strings.Contains(keys[0], "/") {
		return err
	}
	named := s.KeysNamed(ctx, controller, keys[0])
	if len(named) != 1 {
		return err
	}
	return fmt.Errorf("%v; a namespaced object's key is NAMESPACE/NAME: did you mean %s?", o.explainError(err), named[0])
}

// withControllerHint says what to do about a key several controllers track.
func withControllerHint(err error) error {
	if amb, ok := errors.AsType[*inspector.AmbiguousKeyError](err); ok {
		return fmt.Errorf("%w: name one with --controller", amb)
	}
	return err
}

func printControllerDiagnosis(w io.Writer, d explain.ControllerDiagnosis) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	fmt.Fprintf(w, "Controller:  %s\n", d.Controller)
	fmt.Fprintf(w, "Situation:   %s\n\n", d.Situation)
	fmt.Fprintln(w, "Diagnosis:")
	for _, line := range append([]string{d.Summary}, d.Details...) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, f := range d.Findings {
		fmt.Fprintf(w, "  ! %s\n", f.Message)
	}
}

// printDescription prints d; noObject says why, when it was not read.
func printDescription(w io.Writer, d *describe.Description, noObject string) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	k, now := d.Key, d.Key.ServerTime
	fmt.Fprintf(w, "Key:         %s\n", k.Key.Key)
	fmt.Fprintf(w, "Controller:  %s", k.Controller)
	if d.Controller != nil && d.Controller.Kind != nil {
		fmt.Fprintf(w, " (%s %s)", d.Controller.Kind.Kind, strings.Trim(d.Controller.Kind.Group+"/"+d.Controller.Kind.Version, "/"))
	}
	fmt.Fprintln(w)
	if k.Pod != "" {
		fmt.Fprintf(w, "Pod:         %s\n", k.Pod)
	}
	fmt.Fprintf(w, "State:       %s\n\n", k.State)

	fmt.Fprintln(w, "Diagnosis:")
	for _, line := range append([]string{d.Diagnosis.Summary}, d.Diagnosis.Details...) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, f := range d.Diagnosis.Findings {
		fmt.Fprintf(w, "  ! %s\n", f.Message)
	}

	if d.Source.Ended() {
		// A saved log: "5s", "36s ago" count from its end, not from now.
		fmt.Fprintf(w, "\nCounters (as of the log's last line, %s):\n", text.TimeOfDay(d.Source.EndsAt))
	} else {
		fmt.Fprintln(w, "\nCounters:")
	}
	// A log without its successes cannot say the failures are consecutive.
	fmt.Fprintf(w, "  Failures:       %s, %d in all, over %d reconciles\n", explain.FailuresText(k.KeyDetail.Key, d.Source), k.TotalFailures, k.Reconciles)
	fmt.Fprintf(w, "  Next retry:     %s\n", nextRetryLine(k.KeyDetail.Key, now))
	fmt.Fprintf(w, "  Delay:          %s (%s)\n", dur(k.Delay.Duration), dash(k.DelaySource))
	fmt.Fprintf(w, "  Failing since:  %s\n", sinceWhen(k.FirstFailureAt, now))
	fmt.Fprintf(w, "  Last success:   %s\n", lastSuccessLine(k.KeyDetail.Key, now))
	fmt.Fprintf(w, "  Last event:     %s\n", ago(k.LastEventAt, now))
	fmt.Fprintf(w, "  Last reconcile: %s, took %s\n", ago(k.LastReconcileAt, now), dur(k.LastDuration.Duration))

	printHistory(w, k.History)

	printObjectStatus(w, d, noObject)
}

// lastSuccessLine is when the key last converged; a key whose reconciles
// end in RequeueAfter never "succeeds" in controller-runtime's terms
// (its result is requeue_after), and "-" alone read as "never worked".
func lastSuccessLine(k api.Key, now time.Time) string {
	if k.LastSuccessAt.IsZero() && k.TotalFailures == 0 && k.Reconciles > 0 && k.DelaySource == api.SourceRequeueAfter {
		return "- (no error in " + text.Plural(k.Reconciles, "reconcile") + "; the last asked for RequeueAfter)"
	}
	return ago(k.LastSuccessAt, now)
}

// printHistory prints the attempts, oldest first, with why each one ran:
// sixteen attempts 50s apart under a 50s delay read as backoff ignored until
// the TRIGGER column says they were watch events.
func printHistory(w io.Writer, hist []api.Attempt) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	fmt.Fprintln(w, "\nHistory (oldest first):")
	if len(hist) == 0 {
		fmt.Fprintln(w, "  none recorded yet")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "  TIME\tTRIGGER\tOUTCOME\tDELAY\tTOOK\tCLASS\tERROR")
	for i, a := range hist {
		var prev *api.Attempt
		if i > 0 {
			prev = &hist[i-1]
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", text.TimeOfDayMillis(a.At), explain.TriggerText(a, prev), a.Outcome,
			dur(a.Delay.Duration), dur(a.Duration.Duration), dash(a.Class), dash(oneLine(a.Error, 0)))
	}
	tw.Flush()
}

func printObjectStatus(w io.Writer, d *describe.Description, noObject string) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	fmt.Fprintln(w, "\nObject:")
	switch {
	case d.ObjectErr != nil:
		fmt.Fprintf(w, "  could not read it: %v\n", d.ObjectErr)
		return
	case d.Object == nil:
		fmt.Fprintln(w, "  not read: "+noObject)
		return
	}
	o := d.Object
	obs := "none"
	v := o.Verdict
	if v.ObservedGeneration != nil {
		obs = fmt.Sprint(*v.ObservedGeneration)
	}
	fmt.Fprintf(w, "  Generation:  %d (status.observedGeneration: %s)\n", v.Generation, obs)
	if v.Status != "" {
		// The verdict `why` gives, by the same rule (objstatus).
		fmt.Fprintf(w, "  Verdict:     %s\n", objstatus.Line(v, o.SpecChange, func(t time.Time) string { return ago(t, d.Key.ServerTime) }))
		if v.Message != "" && (v.Status == objstatus.Failed || v.Override != "") {
			fmt.Fprintf(w, "               %s\n", oneLine(v.Message, 160))
		}
	}
	if o.DeletionTimestamp != nil {
		fmt.Fprintf(w, "  Deleting since %s; finalizers: %s\n", text.TimeOfDay(*o.DeletionTimestamp), strings.Join(o.Finalizers, ", "))
	}
	tw := newTable(w)
	if len(v.Conditions) > 0 {
		fmt.Fprintln(tw, "  CONDITION\tSTATUS\tREASON\tMESSAGE")
		for _, c := range v.Conditions {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.Type, c.Status, dash(c.Reason), dash(oneLine(c.Message, 80)))
		}
	}
	if len(o.Events) > 0 {
		fmt.Fprintln(tw, "\n  EVENT\tREASON\tCOUNT\tLAST SEEN\tMESSAGE")
		for _, e := range o.Events {
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\n", e.Type, e.Reason, e.Count, ago(e.LastSeen, d.Key.ServerTime), oneLine(e.Message, 80))
		}
	}
	tw.Flush()
}

// nextRetryLine is the key's next-retry column with the time it names.
func nextRetryLine(k api.Key, now time.Time) string {
	s := explain.NextRetryText(k, now)
	if (k.State == api.StateBackoff || k.State == api.StateScheduled) && !k.NextRetryAt.IsZero() {
		s += " (at " + text.TimeOfDay(k.NextRetryAt) + ")"
	}
	return s
}
