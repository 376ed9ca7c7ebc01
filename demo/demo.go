package demo

import (
	"context"
	"fmt"
	"net"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"golang.org/x/sync/errgroup"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Demo is a running demo. Start returns it once the endpoint is listening.
type Demo struct {
	opts   Options
	counts []int
	reg    *instrument.Registry
	// metrics is the registry the probes' series are on, served at
	// /metrics beside the endpoint: embedded, a demo's own, so that two
	// demos in one process (a fleet test's two clusters) do not replace
	// each other's; against a cluster, controller-runtime's, as a real
	// controller's (its manager's metrics server serves them).
	metrics ctrlmetrics.RegistererGatherer
	server  *instrument.ServerRunnable
	env     *env
	// writer is where simulated users write: the fake client, or a direct
	// (uncached) client to the API server.
	writer client.Client
	// kicks are the controllers' channel sources, by scenario index: how the
	// initial list, the outage's resync and (embedded) edits reach the queues.
	kicks []chan event.GenericEvent

	// serving is set once the server's Start is scheduled, so a failed Start
	// knows whether it must still release the listener.
	serving bool

	done chan struct{}
	err  error
}

// Start builds the objects, starts the controllers and serves the endpoint,
// and returns once the endpoint answers; the first reconciles of all keys
// happen in the background. Everything stops when ctx is done; Wait reports
// when it has.
func Start(ctx context.Context, opts Options) (*Demo, error) {
	opts = opts.withDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	d := &Demo{
		opts:    opts,
		counts:  split(opts.Keys),
		reg:     instrument.NewRegistry(),
		metrics: prometheus.NewRegistry(),
		kicks:   make([]chan event.GenericEvent, len(scenarios)),
		done:    make(chan struct{}),
	}
	if opts.cluster() {
		d.metrics = ctrlmetrics.Registry
	}
	d.env = newEnv(&d.opts, d.counts, time.Now())
	// A forget is logged where the controllers log (as the instrument's
	// default, controller-runtime's logger, does in a real manager), so
	// that --from-logs reads the resets too.
	forgetLog := opts.forgetLogger(nil)
	d.server = instrument.NewServer(opts.Listen, withMetrics(d.metrics, instrument.NewHandler(instrument.HandlerOptions{
		Registry: d.reg,
		Logger:   &forgetLog,
	})))
	// Bind now, so that a bad or busy address fails Start and port 0 is known.
	if err := d.server.Listen(); err != nil {
		return nil, listenError(opts.Listen, err)
	}
	for i := range d.kicks {
		d.kicks[i] = make(chan event.GenericEvent, 1024)
	}

	ctx, cancel := context.WithCancel(ctx)
	g, gctx := errgroup.WithContext(ctx)
	var err error
	if opts.cluster() {
		err = d.startCluster(gctx, g)
	} else {
		err = d.startEmbedded(gctx, g)
	}
	if err != nil {
		cancel()
		_ = g.Wait()
		if !d.serving {
			// The server never ran: with ctx done, Start just closes the listener.
			_ = d.server.Start(ctx)
		}
		return nil, err
	}
	g.Go(func() error { return d.simulate(gctx) })
	go d.stopWhenDone(ctx, cancel, g)
	return d, nil
}

// stopWhenDone waits for the demo's goroutines. Once ctx is done it waits at
// most shutdownTimeout: a classic work queue hands every remaining key to the
// workers before it stops, which after a mass enqueue of 100,000 keys can take
// longer than a Ctrl-C should.
func (d *Demo) stopWhenDone(ctx context.Context, cancel context.CancelFunc, g *errgroup.Group) {
	defer close(d.done)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- g.Wait() }()
	select {
	case d.err = <-stopped:
		return
	case <-ctx.Done():
	}
	t := time.NewTimer(shutdownTimeout)
	defer t.Stop()
	select {
	case d.err = <-stopped:
	case <-t.C:
		fmt.Fprintf(d.opts.ErrOut, "demo: controllers still draining their queues after %v; not waiting for them\n", shutdownTimeout)
	}
}

// startEmbedded runs the controllers unmanaged over a fake client, fed
// through channel sources: no API server, no cache.
func (d *Demo) startEmbedded(ctx context.Context, g *errgroup.Group) error {
	// Probes first and the endpoint right after: it answers (listing the
	// controllers, with no keys yet) while 100,000 objects are being built.
	probes := make([]*instrument.Probe, len(scenarios))
	for i := range scenarios {
		probes[i] = newProbe(d.reg, &scenarios[i], d.opts.Jitter, instrument.Options{MetricsRegisterer: d.metrics, WorstKeys: instrument.DefaultWorstKeys})
	}
	d.serving = true
	g.Go(func() error { return d.server.Start(ctx) })

	store, err := newStore(ctx, d.opts.Namespace, d.counts)
	if err != nil {
		return err
	}
	d.env.client, d.writer = store, store
	for i := range scenarios {
		sc := &scenarios[i]
		o := d.env.controllerOptions(sc, probes[i])
		o.Reconciler = probes[i].Reconciler(sc.newReconciler(d.env))
		o.LogConstructor = builderLog(o.Logger, sc.name) // the keys the cluster mode's builder logs
		c, err := controller.NewTypedUnmanaged(sc.name, o)
		if err != nil {
			return fmt.Errorf("controller %s: %w", sc.name, err)
		}
		if err := c.Watch(source.Channel(d.kicks[i], &handler.EnqueueRequestForObject{})); err != nil {
			return fmt.Errorf("controller %s: %w", sc.name, err)
		}
		g.Go(func() error { return c.Start(ctx) })
	}
	// The informer's initial list, in a real controller: one add per object.
	g.Go(func() error {
		for i := range scenarios {
			if d.kickAll(ctx, i) != nil {
				return nil // stopping
			}
		}
		return nil
	})
	return nil
}

// newStore returns a fake client holding the demo's objects. They go
// straight into a plain tracker, checking ctx as they go so that a Ctrl-C
// during a 100,000-object build is not kept waiting. (The builder's default
// tracker also records managed fields, building a REST mapper on every
// update under the lock that every read waits for.)
func newStore(ctx context.Context, namespace string, counts []int) (client.WithWatch, error) {
	tracker := clienttesting.NewObjectTracker(scheme.Scheme, scheme.Codecs.UniversalDecoder())
	n := 0
	for si := range scenarios {
		for i := range counts[si] {
			if n++; n%1024 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			obj := newObject(namespace, &scenarios[si], i)
			// The fake client's own Add would set it: an update must carry the
			// version it read, or it is refused with a conflict.
			obj.ResourceVersion = "1"
			if err := tracker.Add(obj); err != nil {
				return nil, fmt.Errorf("store %s/%s: %w", namespace, obj.Name, err)
			}
		}
	}
	return fake.NewClientBuilder().
		WithObjectTracker(tracker).
		WithInterceptorFuncs(honourContext).
		Build(), nil
}

// honourContext makes the fake client fail a call whose context is done, as
// a real client's request would. On shutdown the queue hands its remaining
// keys to the workers; this way each of them returns at once.
var honourContext = interceptor.Funcs{
	Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return c.Get(ctx, key, obj, opts...)
	},
	Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return c.Update(ctx, obj, opts...)
	},
}

// kick sends the named objects of scenario si to its controller.
func (d *Demo) kick(ctx context.Context, si int, names ...string) error {
	for _, name := range names {
		obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: d.opts.Namespace, Name: name}}
		select {
		case d.kicks[si] <- event.GenericEvent{Object: obj}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// kickAll sends every object of scenario si, as a resync would.
func (d *Demo) kickAll(ctx context.Context, si int) error {
	for i := range d.counts[si] {
		if err := d.kick(ctx, si, objectName(scenarios[si].name, i)); err != nil {
			return err
		}
	}
	return nil
}

// Wait blocks until the demo has stopped and returns the first error that
// stopped it (nil when it stopped because its context was done).
func (d *Demo) Wait() error {
	<-d.done
	return d.err
}

// Done is closed once the demo has stopped.
func (d *Demo) Done() <-chan struct{} { return d.done }

// Addr is the endpoint's bound address.
func (d *Demo) Addr() net.Addr { return d.server.Addr() }

// URL is the endpoint's base URL, e.g. http://127.0.0.1:8082/debug/backoff/.
func (d *Demo) URL() string { return "http://" + d.Addr().String() + api.DefaultPrefix }

// MetricsURL is where the demo serves its probes' Prometheus series, as a
// controller's metrics server does: http://127.0.0.1:8082/metrics.
func (d *Demo) MetricsURL() string { return "http://" + d.Addr().String() + metricsPath }

// Registry lists the demo's controllers, for an in-process client.
func (d *Demo) Registry() *instrument.Registry { return d.reg }

// Seed is the seed in use, so that a run can be repeated with --seed.
func (d *Demo) Seed() int64 { return d.opts.Seed }

// Scenario is one of the demo's controllers and how many keys it has.
type Scenario struct {
	Controller string
	Keys       int
}

// Scenarios lists the demo's controllers in start order.
func (d *Demo) Scenarios() []Scenario {
	out := make([]Scenario, len(scenarios))
	for i := range scenarios {
		out[i] = Scenario{Controller: scenarios[i].name, Keys: d.counts[i]}
	}
	return out
}
