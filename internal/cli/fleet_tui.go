package cli

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// fleetMinRefresh is the fleet view's refresh at the fastest: Prometheus
// changes once a scrape (15-60 s in most setups), and each refresh is three
// queries over the whole fleet.
const fleetMinRefresh = 10 * time.Second

// runFleetTUI runs the fleet view until the user quits it or enter
// chooses a controller; then it runs top there, through the chosen
// cluster's kube context.
func runFleetTUI(ctx context.Context, o *FleetOptions) error {
	var chosen *fleet.Row
	var kubeContext string
	err := ui.Run(ctx, ui.Options{Refresh: fleetMinRefresh, Fleet: &ui.FleetOptions{
		Read: func(ctx context.Context) (*fleet.Fleet, error) {
			f, err := fleet.Read(ctx, o.client, fleet.Options{ClusterLabel: o.ClusterLabel})
			return f, fleetError(err)
		},
		Filter: o.Filter, Clusters: o.Clusters, Sort: o.Sort,
		ContextFor: o.contextFor,
		Attach:     func(r fleet.Row, c string) { chosen, kubeContext = &r, c },
	}})
	if err != nil || chosen == nil {
		return err
	}
	args := o.attachArgs(*chosen, kubeContext)
	fmt.Fprintf(o.ErrOut, "attaching: kubectl backoff %s\n", strings.Join(args, " "))
	root := NewRootCommand(o.IOStreams)
	root.SetArgs(args)
	return root.ExecuteContext(ctx)
}

// attachArgs are top's arguments for r's controller through kubeContext:
// fleet's --kubeconfig, if given, is top's too (the context is looked up
// there).
func (o *FleetOptions) attachArgs(r fleet.Row, kubeContext string) []string {
	args := []string{"top", "--context", kubeContext, "--controller", r.Controller}
	if o.cf != nil && o.cf.KubeConfig != nil && *o.cf.KubeConfig != "" {
		args = append(args, "--kubeconfig", *o.cf.KubeConfig)
	}
	if r.Namespace != "" {
		args = append(args, "-n", r.Namespace)
	}
	return args
}

// contextFor is the kube context cluster maps to: --context-map's, else
// a context of the kubeconfig named as the cluster. A row without a
// cluster label is cluster "-", as the table prints it and the view's note
// says to map it (--context-map -=CONTEXT).
func (o *FleetOptions) contextFor(cluster string) (string, bool) {
	if c, ok := o.contexts[cmp.Or(cluster, "-")]; ok {
		return c, true
	}
	if o.cf == nil || cluster == "" {
		return "", false
	}
	raw, err := o.cf.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return "", false
	}
	if _, ok := raw.Contexts[cluster]; ok {
		return cluster, true
	}
	return "", false
}
