package instrument

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Defaults for TypedOptions.
const (
	DefaultMaxKeys   = 100_000
	DefaultRetention = 30 * time.Minute
)

// Options configures a Probe for a controller-runtime controller.
type Options = TypedOptions[reconcile.Request]

// Probe records the keys of one controller-runtime controller.
type Probe = TypedProbe[reconcile.Request]

// TypedOptions configures a TypedProbe. Every field is optional.
type TypedOptions[T comparable] struct {
	// Registry is where the probe is listed for the endpoint.
	// Defaults to DefaultRegistry if unset.
	Registry *Registry

	// Object is an example of the reconciled object, e.g. &appsv1.Deployment{};
	// its kind is advertised so clients can show the object behind a key.
	// Kind takes precedence if set.
	Object runtime.Object
	// Scheme resolves Object's kind: the manager's (mgr.GetScheme()) for a
	// CRD's type. Defaults to client-go's scheme.Scheme, which knows only
	// the built-in kinds, if unset; a kind it cannot tell is logged.
	Scheme *runtime.Scheme
	// Kind is the reconciled object's kind, for objects no scheme knows.
	Kind schema.GroupVersionKind

	// UsePriorityQueue says which queue a client-go controller runs, as it
	// picks the default limiter (RateLimiter(nil)) the way controller-runtime
	// does. Defaults to true if unset, like controller-runtime; set it to
	// false for the classic queue. ControllerOptions needs none of it: it
	// follows the queue controller-runtime chose.
	UsePriorityQueue *bool

	// KeyFunc turns an item into the key the endpoint shows. Defaults to
	// "namespace/name" for reconcile.Request and types.NamespacedName, the
	// string itself, fmt.Stringer, or else fmt.Sprint.
	KeyFunc func(T) string

	// Clock is the time source. Defaults to the real clock if unset. When
	// set, a ControllerLimiter the probe wraps (RateLimiter) that runs on
	// the real clock runs its token bucket on this clock too, so a test's
	// fake clock decides the bucket's delays and tokens as well.
	Clock clock.PassiveClock
	// MaxKeys bounds the tracked keys; idle keys are evicted first, oldest first.
	// Defaults to DefaultMaxKeys (100,000) if unset.
	MaxKeys int
	// Retention is how long an idle key stays listed. Defaults to
	// DefaultRetention (30 minutes) if unset.
	Retention time.Duration

	// Jitter, if set, spreads retries by a random ±Jitter (0.25 is ±25 %):
	// the default limiter the probe builds is wrapped in a JitterLimiter, and
	// the reconciler decorator jitters RequeueAfter the same way. It is the
	// one option that changes what the controller does; off by default.
	Jitter float64

	// MetricsRegisterer is where the probe's Prometheus series (see
	// MetricKeys) are registered, e.g. prometheus.DefaultRegisterer in a
	// client-go controller. Defaults to controller-runtime's metrics.Registry,
	// which the manager's metrics server serves, if unset.
	MetricsRegisterer prometheus.Registerer
	// DisableMetrics registers no Prometheus series.
	DisableMetrics bool
	// WorstKeys, if above 0, also exports the controller's WorstKeys worst
	// keys (most failures in a row first; DefaultWorstKeys is a good value,
	// MaxWorstKeys the most): MetricWorstKeyFailures and MetricWorstKeyRetry,
	// labelled by key and state, replaced at each scrape as keys change.
	// The one per-key export, so off by default: it costs 2·WorstKeys
	// series per replica, and a new series each time a key enters them.
	WorstKeys int

	// EventRecorder, if set, records a Normal Event (reason
	// EventReasonBackoffReset) on the object behind each key a forget
	// resets — "backoff reset by alice: dependency restored" — so kubectl
	// describe shows it with the object's events; e.g.
	// mgr.GetEventRecorder("widget"), or for client-go an
	// events.NewBroadcaster recorder. It needs the object's kind (Object or
	// Kind) and namespace/name keys; at most 100 Events per forget. Defaults
	// to none: forgets are then recorded in the key's history and the log.
	EventRecorder events.EventRecorder
	// EventObjects, with EventRecorder, reads the UID of a forgotten key's
	// object (metadata only), which kubectl describe needs to list the
	// Event with the object; e.g. mgr.GetAPIReader(). Without it the Event
	// names the object by kind, namespace and name: kubectl get events
	// lists it, kubectl describe does not.
	EventObjects client.Reader
}

// TypedProbe records per-key backoff state for one controller. Build it with
// New or NewTyped, then wrap the controller's parts with ControllerOptions (or
// RateLimiter, NewQueue) and Reconciler.
type TypedProbe[T comparable] struct {
	// name is the controller's name; controller-runtime's, once its queue
	// is built (see adoptName), so it changes once and is read by handlers.
	name atomic.Pointer[string]
	reg  *Registry // where the probe is listed
	// metrics is where its series are registered, and their collector;
	// nil with DisableMetrics. Guarded by mu.
	metrics *probeMetrics
	kind    *api.GroupVersionKind
	usePQ   bool
	// pqGiven is whether Options.UsePriorityQueue was set, so that a
	// controller running the other queue is worth a word.
	pqGiven bool
	jitter  float64
	store   *store[T]
	// clock is Options.Clock as given: nil for the real clock.
	clock clock.PassiveClock

	// tracked is set once reconcile outcomes are reported (Reconciler or
	// Track): the limiter and queue then stop inferring them.
	tracked atomic.Bool
	// tracking is set once Track reports outcomes: a client-go worker loop
	// may give up on a key (Forget without a requeue), which controller-
	// runtime never does.
	tracking atomic.Bool
	active   atomic.Bool

	mu      sync.Mutex
	limiter *rateLimiter[T]
	queue   workqueue.TypedRateLimitingInterface[T] // the inner queue, once built

	forgets forgetCounts         // for MetricForgets
	delays  delayHistogram       // for MetricRateLimiterDelay, observed in When
	events  events.EventRecorder // Options.EventRecorder
	objects client.Reader        // Options.EventObjects
}

// New returns a probe for a controller-runtime controller named name and lists
// it in opts.Registry. A probe of the same name in that registry is replaced.
// An empty name is the builder's default, the lowercased kind of
// Options.Object (or Kind). Once controller-runtime builds the controller's
// queue (ControllerOptions), the probe takes the name it gives the
// controller — the one its metrics and logs carry — and logs a name that
// differed.
func New(name string, opts Options) *Probe { return NewTyped(name, opts) }

// NewTyped is New for any queue item type.
func NewTyped[T comparable](name string, opts TypedOptions[T]) *TypedProbe[T] {
	if opts.Registry == nil {
		opts.Registry = DefaultRegistry
	}
	given := opts.Clock
	if opts.Clock == nil {
		opts.Clock = newMonoClock()
	}
	if opts.MaxKeys <= 0 {
		opts.MaxKeys = DefaultMaxKeys
	}
	if opts.Retention <= 0 {
		opts.Retention = DefaultRetention
	}
	kind, err := resolveKind(name, opts)
	if err != nil {
		// Only then is the logger touched: controller-runtime's warns
		// (with a stack) when used in a process that never set one.
		ctrllog.Log.WithName("instrument").Error(err, "the probe has no kind")
	}
	if name == "" && kind != nil {
		// The builder's default for a controller not Named: For's kind.
		name = strings.ToLower(kind.Kind)
	}
	p := &TypedProbe[T]{
		reg:     opts.Registry,
		kind:    kind,
		usePQ:   ptr.Deref(opts.UsePriorityQueue, true),
		pqGiven: opts.UsePriorityQueue != nil,
		jitter:  min(max(opts.Jitter, 0), 1),
		store:   newStore(newKeyer(opts.KeyFunc), opts.Clock, opts.MaxKeys, opts.Retention),
		clock:   given,
		events:  opts.EventRecorder,
		objects: opts.EventObjects,
	}
	p.name.Store(&name)
	p.store.pq.Store(p.usePQ) // until Queue sees the real queue
	opts.Registry.add(p)
	registerMetrics(p, opts)
	return p
}

// resolveKind is the kind the probe advertises: Kind, else Object's in
// Scheme. An Object the scheme does not know (a CRD's type, with client-go's
// scheme) is an error, which New logs rather than drop without a word: the
// probe works without its kind, but no client can then find the controller
// of an object, and New has no error to return.
func resolveKind[T comparable](name string, opts TypedOptions[T]) (*api.GroupVersionKind, error) {
	gvk := opts.Kind
	if gvk.Empty() && opts.Object != nil {
		s, which := opts.Scheme, "Options.Scheme"
		if s == nil {
			s, which = scheme.Scheme, "client-go's scheme (Options.Scheme is unset)"
		}
		got, err := apiutil.GVKForObject(opts.Object, s)
		if err != nil {
			return nil, fmt.Errorf("controller %q: the kind of Options.Object (%T) is not in %s, so kubectl backoff why and kick will not find this controller: "+
				"pass Options.Scheme (mgr.GetScheme()) or Options.Kind: %w", name, opts.Object, which, err)
		}
		gvk = got
	}
	if gvk.Empty() {
		return nil, nil
	}
	return &api.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}, nil
}

// Name is the controller name the probe reports under.
func (p *TypedProbe[T]) Name() string { return *p.name.Load() }

// adoptName makes the probe report under name, the controller's as
// controller-runtime gives it to NewQueue: the endpoint, the Prometheus
// series and the forget log line must name the controller its own metrics
// and logs name, or a reader sees two controllers where there is one.
func (p *TypedProbe[T]) adoptName(name string) {
	old := p.Name()
	if name == "" || name == old {
		return
	}
	ctrllog.Log.WithName("instrument").Info("the probe's name is not the controller's; it reports under the controller's (name the probe so, or the controller with the builder's Named, to keep this quiet)",
		"probe", old, "controller", name)
	p.reg.rename(p, func() { p.name.Store(&name) })
	p.reregisterMetrics()
}

// RateLimiter decorates inner so that every delay it decides is recorded. A nil
// inner means the default limiter controller-runtime would pick: per-item
// exponential for the priority queue, max(exponential, bucket) for the classic
// queue, both in their recording versions so each delay names its source, and
// with their per-key counts kept in the probe's store (one lookup a When, no
// global lock); they decide exactly as client-go's.
func (p *TypedProbe[T]) RateLimiter(inner workqueue.TypedRateLimiter[T]) workqueue.TypedRateLimiter[T] {
	own := inner == nil
	if inner == nil {
		if p.usePQ {
			inner = NewExponentialLimiter[T](DefaultBaseDelay, DefaultMaxDelay)
		} else {
			inner = DefaultControllerLimiter[T]()
		}
		if p.jitter > 0 {
			inner = NewJitterLimiter(inner, p.jitter)
		}
	}
	if rl, ok := inner.(*rateLimiter[T]); ok && rl.probe == p {
		return rl // already ours
	}
	rl := &rateLimiter[T]{inner: inner, probe: p}
	if own {
		rl.fused = fusedOf[T](inner) // nil with jitter: it keeps its own limiter
	}
	if cl, ok := inner.(*ControllerLimiter[T]); ok && cl.clock == nil {
		switch {
		case rl.fused != nil:
			cl.clock = p.store.clock // the fused When reserves on it (see fused)
		case p.clock != nil:
			cl.clock = p.clock // see Options.Clock
		}
	}
	p.mu.Lock()
	p.limiter = rl
	p.mu.Unlock()
	return rl
}

// markActive notes that the controller is working (it is not a standby).
func (p *TypedProbe[T]) markActive() {
	if !p.active.Load() {
		p.active.Store(true)
	}
}

// Reconciler decorates r so that running state and every outcome are recorded.
func (p *TypedProbe[T]) Reconciler(r reconcile.TypedReconciler[T]) reconcile.TypedReconciler[T] {
	p.tracked.Store(true)
	p.store.seesHandouts.Store(true)
	if !p.tracking.Load() {
		p.store.inline.Store(true)
	}
	return &reconciler[T]{inner: r, probe: p}
}

// Track runs sync for item and records its outcome, for plain client-go
// controllers: err == nil is a success, anything else a failure to be retried.
// It returns sync's error.
//
//	err := probe.Track(key, func() error { return c.syncHandler(ctx, key) })
func (p *TypedProbe[T]) Track(item T, sync func() error) error {
	if !p.tracking.Load() { // a load, not a store, on every sync: no cache-line write
		p.tracked.Store(true)
		p.tracking.Store(true)
		p.store.seesHandouts.Store(true)
		p.store.inline.Store(false) // see store.inline
	}
	p.markActive()
	began := p.store.now()
	p.store.started(item, began)
	defer func() {
		if r := recover(); r != nil {
			p.store.panicked(item, r, began)
			panic(r)
		}
	}()
	err := sync()
	p.store.finished(item, reconcile.Result{}, err, began)
	return err
}
