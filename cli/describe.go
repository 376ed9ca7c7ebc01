package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// DescribeOptions are the options of `kubectl backoff describe`.
type DescribeOptions struct {
	attachOptions
	genericiooptions.IOStreams

	Controller string
	Output     string
	key        string
	fromLogs   fromLogsOptions
}

// NewDescribeCommand returns `kubectl backoff describe [TARGET] KEY`.
func NewDescribeCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &DescribeOptions{attachOptions: newAttachOptions(cf), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "describe [TARGET] KEY",
		Short: "Explain why a key is (not) being reconciled",
		Long: `Explain one key in words: its state and why, the delay and which limiter chose it,
when the next retry is and the one after it, the attempt history, and the object
behind the key with its conditions and events.`,
		Example: `  kubectl backoff describe deploy/my-controller default/my-widget
  kubectl backoff describe --addr 127.0.0.1:8082 --controller outage demo/outage-0001`,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Controller, "controller", o.Controller, "Controller of the key (needed when the process runs several)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "Output format: json or yaml (default: text)")
	return cmd
}

// Complete takes the target and the key from args.
func (o *DescribeOptions) Complete(args []string) error {
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
		return fmt.Errorf("describe needs a KEY, e.g. kubectl backoff describe deploy/my-controller default/my-widget")
	case 1:
		o.key = rest[0]
		return nil
	}
	return fmt.Errorf("describe takes one KEY, got %d: %s", len(rest), strings.Join(rest, " "))
}

// Validate checks the flags.
func (o *DescribeOptions) Validate() error {
	if err := validateOutput(o.Output, "json", "yaml"); err != nil {
		return err
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	return o.attachOptions.validate()
}

// Run describes the key.
func (o *DescribeOptions) Run(ctx context.Context) error {
	s, objects, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, false)
	if err != nil {
		return err
	}
	defer s.Close()
	d, err := s.Describe(ctx, o.Controller, o.key, objects)
	if err != nil {
		return err
	}
	if o.Output != "" {
		return printObject(o.Out, o.Output, d)
	}
	printDescription(o.Out, d)
	printLogNote(o.Out, d.Key.Key)
	return nil
}

func printDescription(w io.Writer, d *inspector.Description) {
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

	fmt.Fprintln(w, "\nCounters:")
	fmt.Fprintf(w, "  Failures:       %d consecutive, %d in all, over %d reconciles\n", k.Failures, k.TotalFailures, k.Reconciles)
	fmt.Fprintf(w, "  Next retry:     %s\n", countdown(k.NextRetryAt, now))
	fmt.Fprintf(w, "  Delay:          %s (%s)\n", dur(k.Delay.Duration), dash(k.DelaySource))
	fmt.Fprintf(w, "  Failing since:  %s\n", ago(k.FirstFailureAt, now))
	fmt.Fprintf(w, "  Last success:   %s\n", ago(k.LastSuccessAt, now))
	fmt.Fprintf(w, "  Last event:     %s\n", ago(k.LastEventAt, now))
	fmt.Fprintf(w, "  Last reconcile: %s, took %s\n", ago(k.LastReconcileAt, now), dur(k.LastDuration.Duration))

	fmt.Fprintln(w, "\nHistory (oldest first):")
	tw := printers.GetNewTabWriter(w)
	fmt.Fprintln(tw, "  TIME\tOUTCOME\tDELAY\tTOOK\tERROR")
	for _, a := range k.History {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", a.At.UTC().Format("15:04:05.000"), a.Outcome, dur(a.Delay.Duration), dur(a.Duration.Duration), dash(oneLine(a.Error, 80)))
	}
	tw.Flush()

	printObjectStatus(w, d)
}

func printObjectStatus(w io.Writer, d *inspector.Description) {
	fmt.Fprintln(w, "\nObject:")
	switch {
	case d.ObjectErr != nil:
		fmt.Fprintf(w, "  could not read it: %v\n", d.ObjectErr)
		return
	case d.Object == nil:
		fmt.Fprintln(w, "  not read (no cluster, or the controller does not advertise its kind)")
		return
	}
	o := d.Object
	obs := "none"
	if o.ObservedGeneration != nil {
		obs = fmt.Sprint(*o.ObservedGeneration)
	}
	fmt.Fprintf(w, "  Generation:  %d (status.observedGeneration: %s)\n", o.Generation, obs)
	if o.DeletionTimestamp != nil {
		fmt.Fprintf(w, "  Deleting since %s; finalizers: %s\n", o.DeletionTimestamp.UTC().Format("15:04:05"), strings.Join(o.Finalizers, ", "))
	}
	tw := printers.GetNewTabWriter(w)
	if len(o.Conditions) > 0 {
		fmt.Fprintln(tw, "  CONDITION\tSTATUS\tREASON\tMESSAGE")
		for _, c := range o.Conditions {
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
