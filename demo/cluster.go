package demo

import (
	"context"
	"fmt"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"golang.org/x/sync/errgroup"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// startCluster runs the same controllers under a manager against a real API
// server, on the demo's labelled ConfigMaps, creating those that are missing.
func (d *Demo) startCluster(ctx context.Context, g *errgroup.Group) error {
	cfg, err := d.restConfig()
	if err != nil {
		return err
	}
	// Writes of the simulated users go straight to the API server: the
	// manager's cache is not running yet, and they must not read from it.
	direct, err := client.New(cfg, client.Options{})
	if err != nil {
		return fmt.Errorf("API client: %w", err)
	}
	created, err := ensureObjects(ctx, direct, d.opts.Namespace, d.counts)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.opts.Out, "namespace %s: created %d of %d demo ConfigMaps\n", d.opts.Namespace, created, d.opts.Keys)
	d.writer = direct

	mgr, err := manager.New(cfg, manager.Options{
		Cache: cache.Options{
			// Only the demo's objects: never the whole cluster's ConfigMaps.
			DefaultNamespaces: map[string]cache.Config{d.opts.Namespace: {}},
			ByObject: map[client.Object]cache.ByObject{
				&corev1.ConfigMap{}: {Label: labels.SelectorFromSet(labels.Set{PartOfLabel: PartOfValue})},
			},
		},
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		GracefulShutdownTimeout: ptr.To(shutdownTimeout),
		Logger:                  d.managerLogger(),
	})
	if err != nil {
		return fmt.Errorf("manager: %w", err)
	}
	d.env.client = mgr.GetClient()
	for i := range scenarios {
		sc := &scenarios[i]
		// A forget is an Event on the ConfigMap: kubectl describe shows it.
		probe := newProbe(d.reg, sc, d.opts.Jitter, instrument.Options{
			MetricsRegisterer: d.metrics,
			WorstKeys:         instrument.DefaultWorstKeys,
			EventRecorder:     mgr.GetEventRecorder("kubectl-backoff-demo"),
			EventObjects:      mgr.GetAPIReader(),
		})
		mine := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[scenarioLabel] == sc.name })
		err := builder.ControllerManagedBy(mgr).
			Named(sc.name).
			For(&corev1.ConfigMap{}, builder.WithPredicates(mine)).
			// The outage's resync arrives through the same channel as embedded.
			WatchesRawSource(source.Channel(d.kicks[i], &handler.EnqueueRequestForObject{})).
			WithOptions(d.env.controllerOptions(sc, probe)).
			Complete(probe.Reconciler(sc.newReconciler(d.env)))
		if err != nil {
			return fmt.Errorf("controller %s: %w", sc.name, err)
		}
	}
	if err := mgr.Add(d.server); err != nil {
		return fmt.Errorf("endpoint: %w", err)
	}
	d.serving = true
	g.Go(func() error { return mgr.Start(ctx) })
	return nil
}

// managerLogger is the manager's logger, which the builder also gives the
// controllers' reconciles: with Options.ControllerLog, the log a production
// manager writes; otherwise errors only, on ErrOut.
func (d *Demo) managerLogger() logr.Logger {
	if d.opts.ControllerLog != nil {
		return d.opts.controllerLogger()
	}
	return ErrorLogger(d.opts.ErrOut)
}

// restConfig picks the API server: RESTConfig, else in-cluster, else the
// kubeconfig file's current context.
func (d *Demo) restConfig() (*rest.Config, error) {
	switch {
	case d.opts.RESTConfig != nil:
		return d.opts.RESTConfig, nil
	case d.opts.InCluster:
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, &OptionError{Field: "InCluster", Err: err}
		}
		return cfg, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", d.opts.Kubeconfig)
	if err != nil {
		return nil, &OptionError{Field: "Kubeconfig", Value: d.opts.Kubeconfig, Err: err}
	}
	return cfg, nil
}
