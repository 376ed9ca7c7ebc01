package demo

import (
	"math/rand/v2"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// Controller names, one per scenario; each is also its objects' name prefix.
const (
	outageName      = "outage"
	naiveName       = "naive"
	wellBehavedName = "wellbehaved"
	pollingName     = "polling"
	conflictsName   = "conflicts"
	slowName        = "slow"
)

// Speed-1 durations of the scenarios.
const (
	warmup      = 10 * time.Second // healthy start before the first outage
	pollEvery   = 30 * time.Second // the polling controller's RequeueAfter
	maxPolls    = 20               // a polled resource is ready after 1..maxPolls polls
	slowEvery   = 10 * time.Second // the slow controller's re-check
	editEvery   = 3 * time.Second  // a user edits a failing key
	touchEvery  = 2 * time.Second  // something touches a conflicts key
	minInterval = 10 * time.Millisecond
)

// scenario is one controller of the demo and its slice of the keys.
type scenario struct {
	name string
	// weight is the scenario's share of Options.Keys, in percent; max caps it
	// (0: no cap). Whatever the rounding and caps leave goes to the outage.
	weight, max int
	workers     int
	// classic selects the classic queue, whose limiter is max(exponential,
	// bucket): under a mass failure the bucket, not the exponential, decides.
	classic bool
	// invalid objects lack spec.storageClass, a permanent user error.
	invalid       bool
	newReconciler func(*env) reconcile.Reconciler
}

// scenarios lists the controllers in the order the demo starts them.
var scenarios = []scenario{
	{name: outageName, weight: 50, workers: 4, classic: true,
		newReconciler: func(e *env) reconcile.Reconciler { return &outageReconciler{env: e} }},
	{name: naiveName, weight: 10, workers: 2, invalid: true,
		newReconciler: func(e *env) reconcile.Reconciler { return &naiveReconciler{env: e} }},
	{name: wellBehavedName, weight: 10, workers: 2, invalid: true,
		newReconciler: func(e *env) reconcile.Reconciler { return &wellBehavedReconciler{env: e} }},
	{name: pollingName, weight: 15, workers: 2,
		newReconciler: func(e *env) reconcile.Reconciler { return &pollingReconciler{env: e} }},
	{name: conflictsName, weight: 10, workers: 2,
		newReconciler: func(e *env) reconcile.Reconciler {
			return &conflictsReconciler{env: e, conflicted: map[string]string{}}
		}},
	// A handful of slow keys on two workers: some running, the rest queued.
	{name: slowName, weight: 5, max: 20, workers: 2,
		newReconciler: func(e *env) reconcile.Reconciler { return &slowReconciler{env: e} }},
}

// split spreads n keys over the scenarios, in scenario order.
func split(n int) []int {
	counts := make([]int, len(scenarios))
	rest := n
	for i, sc := range scenarios {
		c := n * sc.weight / 100
		if sc.max > 0 {
			c = min(c, sc.max)
		}
		counts[i] = c
		rest -= c
	}
	counts[0] += rest
	return counts
}

// env is what the reconcilers share: the store, the dependency, the clock
// scaled by the speed, and the seeded randomness.
type env struct {
	opts      *Options
	client    client.Client
	dep       *dependency
	rand      *lockedRand
	pollEvery time.Duration
	slowEvery time.Duration
	// ready is when each polled resource becomes ready; read-only once built.
	ready map[string]time.Time
}

func newEnv(opts *Options, counts []int, start time.Time) *env {
	e := &env{
		opts: opts,
		dep: &dependency{
			sched: schedule{start: start, warmup: opts.scale(warmup), outage: opts.scale(opts.Outage), every: opts.scale(opts.OutageEvery)},
			now:   time.Now,
		},
		rand:      newLockedRand(opts.Seed),
		pollEvery: opts.scale(pollEvery),
		slowEvery: opts.scale(slowEvery),
	}
	n := counts[scenarioIndex(pollingName)]
	e.ready = make(map[string]time.Time, n)
	for i := range n {
		e.ready[objectName(pollingName, i)] = start.Add(time.Duration(1+e.rand.IntN(maxPolls)) * e.pollEvery)
	}
	return e
}

// readyAt is when the named polled resource is ready; unknown ones already are.
func (e *env) readyAt(name string) time.Time { return e.ready[name] }

// controllerOptions wraps the options of sc's controller with its probe.
// The limiter keeps client-go's shape but runs on the demo's clock: base
// 5ms/speed, cap 1000s/speed, bucket 10·speed qps, so what the endpoint reports
// is what the queue really waits.
func (e *env) controllerOptions(sc *scenario, probe *instrument.Probe) controller.TypedOptions[reconcile.Request] {
	return probe.ControllerOptions(controller.TypedOptions[reconcile.Request]{
		MaxConcurrentReconciles: sc.workers,
		RateLimiter:             e.limiter(sc),
		UsePriorityQueue:        ptr.To(!sc.classic),
		// Tests start several demos in one process.
		SkipNameValidation: ptr.To(true),
		// Reconcile errors are the demo's subject: they are read on the
		// endpoint, not logged hundreds of times a second, unless asked for.
		Logger: e.opts.controllerLogger(),
	})
}

// limiter is sc's rate limiter, before the probe wraps it.
func (e *env) limiter(sc *scenario) workqueue.TypedRateLimiter[reconcile.Request] {
	base, maxDelay := e.opts.scale(instrument.DefaultBaseDelay), e.opts.scale(instrument.DefaultMaxDelay)
	var rl workqueue.TypedRateLimiter[reconcile.Request]
	if sc.classic {
		rl = instrument.NewControllerLimiter[reconcile.Request](base, maxDelay, instrument.DefaultQPS*e.opts.Speed, instrument.DefaultBurst)
	} else {
		rl = instrument.NewExponentialLimiter[reconcile.Request](base, maxDelay)
	}
	if e.opts.Jitter > 0 {
		rl = instrument.NewJitterLimiter(rl, e.opts.Jitter)
	}
	return rl
}

// newProbe registers sc's controller with the demo's registry; jitter also
// spreads its RequeueAfter. opts holds what only a cluster (an event
// recorder) or a Replay (its clock) provides; the rest is set here.
func newProbe(reg *instrument.Registry, sc *scenario, jitter float64, opts instrument.Options) *instrument.Probe {
	opts.Registry = reg
	opts.Object = &corev1.ConfigMap{}
	opts.UsePriorityQueue = ptr.To(!sc.classic)
	opts.Jitter = jitter
	return instrument.New(sc.name, opts)
}

func scenarioIndex(name string) int {
	for i := range scenarios {
		if scenarios[i].name == name {
			return i
		}
	}
	panic("demo: unknown scenario " + name)
}

// lockedRand is a seeded source shared by the reconcilers' workers.
type lockedRand struct {
	mu sync.Mutex
	r  *rand.Rand
}

func newLockedRand(seed int64) *lockedRand {
	return &lockedRand{r: rand.New(rand.NewPCG(uint64(seed), 0x6b75626563746c))}
}

// IntN returns a number in [0, n).
func (l *lockedRand) IntN(n int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.IntN(n)
}
