package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
)

// FleetOptions are `fleet`'s: every instrumented controller of every
// cluster, read from the Prometheus that scrapes them.
type FleetOptions struct {
	genericiooptions.IOStreams
	cf *genericclioptions.ConfigFlags

	// The Prometheus connection's, each flag named --prometheus-*: the
	// kube flags (--token, --certificate-authority, --username…) stay
	// the cluster's, as in every kubectl command, and reach top on enter.
	Prometheus, Token, TokenFile string
	CAFile                       string
	Insecure                     bool
	Username, PasswordFile       string
	ClusterLabel                 string
	Filter, Sort                 string
	Clusters                     []string
	ShowQueries                  bool
	Timeout                      time.Duration
	ContextMap                   []string
	ContextMapFile               string
	Output                       string

	output   *outputFlags
	client   *fleet.Client
	contexts map[string]string
	// tui runs the fleet view when stdout is a terminal and -o is not
	// given (runFleetTUI).
	tui func(ctx context.Context, o *FleetOptions) error
}

// NewFleetCommand returns `kubectl backoff fleet`.
func NewFleetCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &FleetOptions{IOStreams: streams, cf: cf, ClusterLabel: "cluster", Sort: fleet.SortWorst, Timeout: 30 * time.Second}
	o.output = newOutputFlags(&o.Output, "", "wide")
	cmd := &cobra.Command{
		Use:   "fleet --prometheus URL",
		Short: "Every instrumented controller of every cluster, from the Prometheus that scrapes them",
		Long: `fleet reads the series every instrumented controller exports (kubectl_backoff_*)
back from Prometheus, Thanos Query or Mimir: one row per controller per cluster,
worst first (the oldest unresolved failure), with its keys by state, its deepest
failure streak, its keys at the limiter's cap and the forgets of the last day,
and its rate limiter's retry delays of the last hour. Each refresh is one query per panel whatever the number of controllers;
--show-queries prints them, to paste into Grafana.

On a terminal it opens the fleet view; enter on a controller runs top through
the kube context its cluster maps to (--context-map, or a context of the same
name), or shows the command to run. The --prometheus-* flags are for the
Prometheus; kubectl's own (--kubeconfig, --token, --certificate-authority…)
are the clusters', as everywhere, and --kubeconfig is passed on to top.`,
		Example: `  kubectl backoff fleet --prometheus http://prometheus.monitoring:9090
  kubectl backoff fleet --prometheus https://thanos.example.com --prometheus-token-file token -o json
  kubectl backoff fleet --prometheus http://127.0.0.1:9090 --show-queries`,
		Args: cobra.NoArgs,
		RunE: runE(o),
	}
	f := cmd.Flags()
	f.StringVar(&o.Prometheus, "prometheus", o.Prometheus, "The Prometheus HTTP API to read (Prometheus, Thanos Query, Mimir): http(s)://host:port[/prefix]")
	f.StringVar(&o.Token, "prometheus-token", o.Token, "Send this bearer token to --prometheus (not the cluster's: that is --token)")
	f.StringVar(&o.TokenFile, "prometheus-token-file", o.TokenFile, "Send the bearer token in this file to --prometheus")
	f.StringVar(&o.CAFile, "prometheus-ca-file", o.CAFile, "Check --prometheus's certificate against the CAs in this PEM file (not the cluster's: that is --certificate-authority)")
	f.BoolVar(&o.Insecure, "prometheus-insecure-skip-verify", o.Insecure, "Do not check --prometheus's certificate (insecure)")
	f.StringVar(&o.Username, "prometheus-username", o.Username, "Basic auth user for --prometheus (with --prometheus-password-file)")
	f.StringVar(&o.PasswordFile, "prometheus-password-file", o.PasswordFile, "Basic auth password for --prometheus, read from this file")
	f.StringVar(&o.ClusterLabel, "cluster-label", o.ClusterLabel, "The label your scrape configuration or federation puts on a cluster's series")
	f.StringVarP(&o.Filter, "filter", "q", o.Filter, "Only controllers whose cluster/namespace/name contains this (a leading ~ makes it a regular expression)")
	f.StringSliceVar(&o.Clusters, "cluster", o.Clusters, "Only these clusters")
	f.StringVar(&o.Sort, "sort", o.Sort, "Sort by "+strings.Join(fleet.Sorts, ", ")+" (default worst: the oldest unresolved failure first)")
	f.BoolVar(&o.ShowQueries, "show-queries", o.ShowQueries, "Print the PromQL of each panel and exit")
	f.DurationVar(&o.Timeout, "prometheus-timeout", o.Timeout, "Give up on a query after this long")
	f.StringSliceVar(&o.ContextMap, "context-map", o.ContextMap, "CLUSTER=CONTEXT: the kube context enter attaches through for a cluster (default: a context named as the cluster); CLUSTER - is the rows without a cluster label")
	f.StringVar(&o.ContextMapFile, "context-map-file", o.ContextMapFile, "A file of CLUSTER=CONTEXT lines, as --context-map")
	o.output.addFlags(cmd)
	o.tui = runFleetTUI
	return cmd
}

// Complete reads the files the flags name and resolves -o.
func (o *FleetOptions) Complete(args []string) error {
	if err := o.output.complete(); err != nil {
		return err
	}
	if o.TokenFile != "" {
		if o.Token != "" {
			return errors.New("--prometheus-token and --prometheus-token-file exclude each other")
		}
		b, err := os.ReadFile(o.TokenFile)
		if err != nil {
			return fmt.Errorf("--prometheus-token-file: %w", err)
		}
		o.Token = strings.TrimSpace(string(b))
	}
	password := ""
	if o.PasswordFile != "" {
		b, err := os.ReadFile(o.PasswordFile)
		if err != nil {
			return fmt.Errorf("--prometheus-password-file: %w", err)
		}
		password = strings.TrimRight(string(b), "\r\n")
	}
	var err error
	if o.contexts, err = parseContextMap(o.ContextMap, o.ContextMapFile); err != nil {
		return err
	}
	if o.ShowQueries {
		return nil
	}
	if o.Prometheus == "" {
		return errors.New("--prometheus is required: the URL of the Prometheus, Thanos Query or Mimir that scrapes your controllers")
	}
	if o.Token != "" && o.Username != "" {
		return errors.New("--prometheus-token and --prometheus-username exclude each other: use one way to authenticate to --prometheus")
	}
	o.client, err = fleet.NewClient(fleet.Config{URL: o.Prometheus, BearerToken: o.Token,
		Username: o.Username, Password: password, CAFile: o.CAFile, Insecure: o.Insecure, Timeout: o.Timeout})
	if caErr, ok := errors.AsType[*fleet.CAFileError](err); ok {
		return fmt.Errorf("--prometheus-ca-file: %w", caErr)
	}
	if err != nil {
		return fmt.Errorf("--prometheus: %w", err)
	}
	return nil
}

// Validate checks the flags against each other.
func (o *FleetOptions) Validate() error {
	if o.PasswordFile != "" && o.Username == "" {
		return errors.New("--prometheus-password-file needs --prometheus-username")
	}
	if err := fleet.CheckSort(o.Sort); err != nil {
		return fmt.Errorf("--sort: %w", err)
	}
	if err := fleet.CheckFilter(o.Filter); err != nil {
		return fmt.Errorf("--filter: %w", err)
	}
	if o.ClusterLabel == "" {
		return errors.New("--cluster-label must not be empty")
	}
	return nil
}

// Run prints the queries, the fleet view, or one read as -o says.
func (o *FleetOptions) Run(ctx context.Context) error {
	if o.ShowQueries {
		for _, p := range fleet.Queries(o.ClusterLabel) {
			fmt.Fprintf(o.Out, "# %s\n%s\n\n", p.Name, p.Query)
		}
		return nil
	}
	if o.output.format() == "" && o.tui != nil && writerIsTerminal(o.Out) {
		return o.tui(ctx, o)
	}
	f, err := o.read(ctx)
	if err != nil {
		return err
	}
	for _, w := range f.Warnings {
		fmt.Fprintf(o.ErrOut, "warning: %s answered with a warning, some clusters may be missing: %s\n", f.Server, w)
	}
	if !o.output.text() {
		return o.output.print(o.Out, f, "")
	}
	fmt.Fprintln(o.ErrOut, fleetHeader(f))
	return printFleet(o.Out, f.Rows, o.output.format() == "wide")
}

// read reads the fleet once, filtered and sorted as the flags say.
func (o *FleetOptions) read(ctx context.Context) (*fleet.Fleet, error) {
	f, err := fleet.Read(ctx, o.client, fleet.Options{ClusterLabel: o.ClusterLabel})
	if err != nil {
		return nil, fleetError(err)
	}
	f.Rows = fleet.Filter(f.Rows, o.Filter, o.Clusters)
	fleet.Sort(f.Rows, o.Sort)
	return f, nil
}

// parseContextMap reads CLUSTER=CONTEXT pairs from the flag and the file
// (one a line; # comments).
func parseContextMap(pairs []string, file string) (map[string]string, error) {
	m := map[string]string{}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--context-map-file: %w", err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			c, ctx, ok := strings.Cut(l, "=")
			if !ok || c == "" || ctx == "" {
				return nil, fmt.Errorf("--context-map-file %s:%d: want CLUSTER=CONTEXT, got %q", file, i+1, l)
			}
			m[strings.TrimSpace(c)] = strings.TrimSpace(ctx)
		}
	}
	for _, p := range pairs {
		c, ctx, ok := strings.Cut(p, "=")
		if !ok || c == "" || ctx == "" {
			return nil, fmt.Errorf("--context-map %q: want CLUSTER=CONTEXT", p)
		}
		m[c] = ctx
	}
	return m, nil
}

// fleetError says a read's error in the flags' words: --prometheus given an
// instrumented endpoint (the demo prints its /metrics "for Prometheus to
// scrape") is told what it takes, and how that endpoint is read instead.
func fleetError(err error) error {
	if np, ok := errors.AsType[*fleet.NotPrometheusError](err); ok {
		return fmt.Errorf("--prometheus %s is a kubectl-backoff endpoint, not a Prometheus: give the Prometheus (Thanos Query, Mimir) that scrapes the controllers' /metrics; to read this endpoint itself: kubectl backoff top --addr %s", np.Server, np.Endpoint)
	}
	return err
}
