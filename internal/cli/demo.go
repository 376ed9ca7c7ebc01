package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// DemoOptions are the flags of `kubectl backoff demo`.
type DemoOptions struct {
	genericiooptions.IOStreams

	Keys      int
	Seed      int64
	Speed     float64
	Jitter    float64
	Listen    string
	ServeOnly bool
	InCluster bool
	// LogFile receives the controllers' log (--log), for --from-logs.
	LogFile string

	configFlags *genericclioptions.ConfigFlags
	demo        demo.Options
	// isTerminal says whether Out is a terminal the UI can take; tests replace it.
	isTerminal func(io.Writer) bool
}

// NewDemoOptions returns the options with the flags' defaults.
func NewDemoOptions(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *DemoOptions {
	d := demo.DefaultOptions()
	return &DemoOptions{IOStreams: streams, Keys: d.Keys, Speed: d.Speed, Listen: d.Listen, configFlags: cf, isTerminal: writerIsTerminal}
}

// NewDemoCommand returns the demo command. kubectl's --kubeconfig (and
// --context) switch it from the embedded store to a real API server.
func NewDemoCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewDemoOptions(cf, streams)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run controllers with a flaky dependency and watch them back off",
		Long: `Run in-process controllers on the real controller-runtime machinery, with a
downstream API that has outages, invalid objects, polling, conflicts and slow
reconciles, and serve their per-key backoff state on the debug endpoint.
No cluster is needed; --kubeconfig or --in-cluster runs the same controllers
against a real API server instead.`,
		Example: `  # Start the demo and look at what is backing off
  kubectl backoff demo --serve-only &
  curl -s 'localhost:8082/debug/backoff/v1/keys?state=backoff&sort=failures&limit=5'

  # Ten times faster, reproducibly
  kubectl backoff demo --speed 10 --seed 42

  # The same with ±25% jitter: the forecast of retries flattens
  kubectl backoff demo --speed 10 --seed 42 --jitter 0.25

  # Also write the controllers' log, to read it as log mode reads a controller's
  # (kubectl backoff get --from-logs demo.log) beside the endpoint
  kubectl backoff demo --serve-only --seed 7 --log demo.log`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// The demo says a refused option in its fields' words
			// (demo.OptionError); inFlags says it under the flag.
			if err := o.Complete(cmd, args); err != nil {
				return inFlags(err)
			}
			if err := o.Validate(); err != nil {
				return inFlags(err)
			}
			return inFlags(o.Run(cmd.Context()))
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Keys, "keys", o.Keys, fmt.Sprintf("number of objects, spread over the scenarios (1-%d)", demo.MaxKeys))
	f.Int64Var(&o.Seed, "seed", o.Seed, "seed for a deterministic run (0: random, printed at start)")
	f.Float64Var(&o.Speed, "speed", o.Speed, "compress time: outages, RequeueAfter and backoff delays are divided by this")
	f.Float64Var(&o.Jitter, "jitter", o.Jitter, "spread retries by a random ±fraction (0.25 is ±25%) to see the retry forecast flatten; 0 is client-go's behaviour")
	f.StringVar(&o.Listen, "listen", o.Listen, "address of the debug endpoint (port 0 picks a free one)")
	f.BoolVar(&o.ServeOnly, "serve-only", o.ServeOnly, "print the endpoint address and serve, without the terminal UI")
	f.BoolVar(&o.InCluster, "in-cluster", o.InCluster, "run against the API server of the pod the demo runs in")
	f.StringVar(&o.LogFile, "log", o.LogFile, "write the controllers' log to FILE (zap JSON, as controller-runtime's production logger writes it), to try --from-logs FILE")
	return cmd
}

// Complete builds the demo's options from the flags.
func (o *DemoOptions) Complete(cmd *cobra.Command, args []string) error {
	o.demo = demo.Options{
		Keys:      o.Keys,
		Seed:      o.Seed,
		Speed:     o.Speed,
		Jitter:    o.Jitter,
		Listen:    o.Listen,
		InCluster: o.InCluster,
		Out:       o.ErrOut, // progress is for people; stdout has the address
		ErrOut:    o.ErrOut,
	}
	// Only an explicit --kubeconfig leaves the embedded store: a demo must not
	// create objects in whatever cluster $KUBECONFIG happens to point at.
	if o.configFlags != nil && o.configFlags.KubeConfig != nil && *o.configFlags.KubeConfig != "" {
		cfg, err := o.configFlags.ToRESTConfig()
		if err != nil {
			return fmt.Errorf("--kubeconfig %s: %w", *o.configFlags.KubeConfig, err)
		}
		o.demo.RESTConfig = cfg
	}
	return nil
}

// Validate checks the flags; errors name the flag.
func (o *DemoOptions) Validate() error {
	if o.Listen == "" {
		return fmt.Errorf("--listen must not be empty")
	}
	if o.LogFile != "" && o.Speed != 1 {
		// The log is stamped in real time while the limiters' delays are
		// divided by --speed: log mode, which knows only client-go's real
		// delays, would read every wait --speed times too long.
		return fmt.Errorf("--log with --speed %g: the log's times are real but the delays are %g times shorter, so --from-logs would read it %g times off; "+
			"write the log at --speed 1 (the default)", o.Speed, o.Speed, o.Speed)
	}
	return o.demo.Validate()
}

// Run starts the demo and serves until ctx is done.
func (o *DemoOptions) Run(ctx context.Context) error {
	// With the UI the terminal is the UI's: the demo's progress lines and
	// controller-runtime's errors would tear through its screen.
	tui := !o.ServeOnly && o.isTerminal(o.Out)
	logOut := o.ErrOut
	if tui {
		logOut = io.Discard
		o.demo.Out, o.demo.ErrOut = io.Discard, io.Discard
	}
	// Controller-runtime's own messages: errors only, so the terminal stays
	// readable (reconcile errors are on the endpoint).
	ctrllog.SetLogger(demo.ErrorLogger(logOut))
	if o.LogFile != "" {
		f, err := os.OpenFile(o.LogFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return fmt.Errorf("--log: %w", err)
		}
		// Closed once the controllers have stopped writing (d.Wait).
		defer f.Close()
		o.demo.ControllerLog = f
	}
	// The demo stops with ctx (Ctrl-C) or when the user quits the UI.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	d, err := demo.Start(ctx, o.demo)
	if err != nil {
		if ctx.Err() != nil {
			return nil // interrupted while starting: a clean stop, not a failure
		}
		return err
	}
	if !tui {
		o.printStarted(d)
		return d.Wait()
	}
	// The terminal UI, attached to the demo itself; quitting it stops the demo.
	s, err := inspector.Direct(d.URL(), nil)
	if err != nil {
		return err
	}
	// The detail shows each key's object, read from where the demo keeps it
	// (its in-process store, with no API server).
	objects := &describe.ObjectReader{Fetch: func(ctx context.Context, gvk api.GroupVersionKind, ns, name string) (*unstructured.Unstructured, error) {
		return d.Object(ctx, gvk.Group, gvk.Version, gvk.Kind, ns, name)
	}}
	uiErr := ui.Run(ctx, ui.Options{Session: s, Objects: objects, Namespace: cmp.Or(o.demo.Namespace, demo.DefaultNamespace)})
	stop()
	if err := d.Wait(); err != nil {
		return err
	}
	if uiErr == nil {
		fmt.Fprintf(o.ErrOut, "kubectl backoff demo: stopped (it served %s)\n", d.URL())
	}
	return uiErr
}

// printStarted says where the demo serves: the address alone on stdout, for
// scripts; the rest on stderr, for people.
func (o *DemoOptions) printStarted(d *demo.Demo) {
	fmt.Fprintln(o.Out, d.URL())
	parts := make([]string, 0, 6)
	for _, s := range d.Scenarios() {
		parts = append(parts, fmt.Sprintf("%s %d", s.Controller, s.Keys))
	}
	fmt.Fprintf(o.ErrOut, "kubectl backoff demo: %d keys (%s), speed %g, seed %d\n",
		o.Keys, strings.Join(parts, ", "), o.Speed, d.Seed())
	addr := d.URL()
	if u, err := url.Parse(addr); err == nil && u.Host != "" {
		addr = u.Host // --addr takes host:port; the default path is the demo's
	}
	fmt.Fprintf(o.ErrOut, "try: kubectl backoff top --addr %s   (get, describe --controller outage, forget: the same --addr)\n", addr)
	fmt.Fprintf(o.ErrOut, " or: curl -s '%sv1/keys?state=backoff&sort=failures&limit=5'\n", d.URL())
	fmt.Fprintf(o.ErrOut, "Prometheus series (scrape them, then kubectl backoff fleet): %s\n", d.MetricsURL())
	if o.LogFile != "" {
		fmt.Fprintf(o.ErrOut, "the controllers' log goes to %s; try: kubectl backoff get --from-logs %s\n", o.LogFile, o.LogFile)
	}
	// The README starts --serve-only in the background (&), where Ctrl-C
	// does not reach it: the pid says what does.
	fmt.Fprintf(o.ErrOut, "Ctrl-C stops it, or kill %d if it runs in the background\n", os.Getpid())
}

func writerIsTerminal(w io.Writer) bool {
	f, ok := fileOf(w)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fileOf is the file w writes to, through text.PrintableWriter (the
// root command's stderr), so a terminal is still known as one.
func fileOf(w io.Writer) (*os.File, bool) {
	for {
		switch x := w.(type) {
		case *os.File:
			return x, true
		case interface{ Unwrap() io.Writer }:
			w = x.Unwrap()
		default:
			return nil, false
		}
	}
}
