package instrument

import (
	"context"
	"errors"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"sync"
	"sync/atomic"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/prometheus/client_golang/prometheus"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// This file exports a probe's state as Prometheus series, for alerting on
// the monitoring stack a fleet already has. Cardinality is bounded: every
// series is per controller (and per state, outcome or delay bucket), never
// per key, so a controller with 100,000 keys exports 33 series: eleven, and
// the delay histogram's 22 (delayhist.go).

// The series names. Each carries a "controller" label.
const (
	// MetricKeys is a gauge of the keys tracked, by "state" (every state of
	// api.States, 0 included, so a series never disappears).
	MetricKeys = "kubectl_backoff_keys"
	// MetricOldestFailure is a gauge of the age, in seconds, of the oldest
	// failure still unresolved: from the start of a key's failure streak, or,
	// for a failed key with no streak on record (a terminal error on the
	// first try, a controller that gave up), from its last error. 0 when no
	// key is failing.
	MetricOldestFailure = "kubectl_backoff_oldest_failure_seconds"
	// MetricMaxFailures is a gauge of the highest consecutive-failure count
	// of any key, as the limiter counts them.
	MetricMaxFailures = "kubectl_backoff_max_failures"
	// MetricKeysAtCap is a gauge of the keys retrying at the per-item
	// exponential limiter's maximum delay (1000s by default): every further
	// failure waits that long. Absent for a limiter without an exponential
	// component the probe knows (a custom limiter).
	MetricKeysAtCap = "kubectl_backoff_keys_at_cap"
	// MetricForgets is a counter of keys whose backoff was reset through the
	// endpoint (kubectl backoff forget), by "outcome": ForgetRequeued or
	// ForgetReset. A dry run counts nothing.
	MetricForgets = "kubectl_backoff_forgets_total"
)

// Forget outcomes, the values of MetricForgets' "outcome" label.
const (
	// ForgetRequeued: the counter was reset and the key retried now (or
	// spread over the request's window).
	ForgetRequeued = "requeued"
	// ForgetReset: the counter was reset; a pending retry keeps its time.
	ForgetReset = "reset"
)

// forgetCounts counts forgotten keys by outcome. Forget is not on the
// controller's path; atomics because two requests may forget at once.
type forgetCounts struct {
	requeued, reset atomic.Int64
}

// add counts n keys forgotten, requeued or not.
func (f *forgetCounts) add(requeued bool, n int) {
	if requeued {
		f.requeued.Add(int64(n))
	} else {
		f.reset.Add(int64(n))
	}
}

// registerMetrics registers p's collector on opts.MetricsRegisterer
// (controller-runtime's registry by default), unless opts.DisableMetrics. A
// collector of an earlier probe of the same name is replaced, as Registry.add
// replaces the probe: a controller rebuilt in the same process keeps its
// series instead of failing to register them.
func registerMetrics[T comparable](p *TypedProbe[T], opts TypedOptions[T]) {
	if opts.DisableMetrics {
		return
	}
	r := opts.MetricsRegisterer
	if r == nil {
		r = ctrlmetrics.Registry
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.metrics = &probeMetrics{reg: r, worstN: worstKeysOf(opts.WorstKeys)}
	p.registerCollectorLocked()
}

// probeMetrics is where a probe's series are registered, and by what.
type probeMetrics struct {
	reg       prometheus.Registerer
	collector prometheus.Collector
	worstN    int // Options.WorstKeys, capped
}

// reregisterMetrics registers the probe's series again under its name now:
// the controller label is fixed in a collector's descriptions.
func (p *TypedProbe[T]) reregisterMetrics() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.metrics == nil {
		return
	}
	p.metrics.reg.Unregister(p.metrics.collector)
	p.registerCollectorLocked()
}

// registerCollectorLocked registers a collector of p's series; p.mu is held.
func (p *TypedProbe[T]) registerCollectorLocked() {
	r := p.metrics.reg
	c := newCollector(p, p.reg)
	c.worstN = p.metrics.worstN
	p.metrics.collector = c
	var err error
	// A few tries: two probes of one name built at once may each unregister
	// the other's collector.
	for range 3 {
		err = r.Register(c)
		var dup prometheus.AlreadyRegisteredError
		if !errors.As(err, &dup) {
			break
		}
		r.Unregister(dup.ExistingCollector)
	}
	if err != nil {
		// Only a foreign series of the same name with other labels gets here;
		// the probe works without its series.
		ctrllog.Log.WithName("backoff").Error(err, "Prometheus series not registered", "controller", p.Name())
	}
}

// collector computes a probe's series on each scrape from the store, with
// the store's scan: shard locks are held only to copy, and nothing is added
// to what the controller's When and reconciles do.
type collector[T comparable] struct {
	probe *TypedProbe[T]
	// reg is where the probe is listed: once it is removed (or replaced by a
	// probe of the same name) its series are no longer reported.
	reg *Registry

	keys, oldest, maxFailures, atCap, forgets *prometheus.Desc
	delay                                     *prometheus.Desc // MetricRateLimiterDelay (delayhist.go)
	// worstN is how many worst keys a scrape exports (Options.WorstKeys);
	// 0 exports none.
	worstN int
	worst  worstDescs

	mu  sync.Mutex
	buf []query.Item // reused between scrapes; guarded by mu
}

var _ prometheus.Collector = &collector[string]{}

func newCollector[T comparable](p *TypedProbe[T], reg *Registry) *collector[T] {
	l := prometheus.Labels{"controller": p.Name()}
	return &collector[T]{
		probe: p,
		reg:   reg,
		keys:  prometheus.NewDesc(MetricKeys, "Keys tracked by kubectl-backoff's probe, by state.", []string{"state"}, l),
		oldest: prometheus.NewDesc(MetricOldestFailure,
			"Age in seconds of the oldest unresolved failure of any key (0 if none is failing).", nil, l),
		maxFailures: prometheus.NewDesc(MetricMaxFailures, "Highest consecutive-failure count of any key.", nil, l),
		atCap: prometheus.NewDesc(MetricKeysAtCap,
			"Keys retrying at the per-item exponential limiter's maximum delay.", nil, l),
		forgets: prometheus.NewDesc(MetricForgets,
			"Keys whose backoff was reset through the endpoint, by what followed.", []string{"outcome"}, l),
		worst: newWorstDescs(l),
		delay: newDelayDesc(l),
	}
}

// Describe sends the series' descriptions.
func (c *collector[T]) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.keys, c.oldest, c.maxFailures, c.atCap, c.forgets, c.delay} {
		ch <- d
	}
	if c.worstN > 0 {
		ch <- c.worst.failures
		ch <- c.worst.retry
	}
}

// Collect computes the series now.
func (c *collector[T]) Collect(ch chan<- prometheus.Metric) {
	if got, ok := c.reg.get(c.probe.Name()); !ok || got != controllerSource(c.probe) {
		return
	}
	now := c.probe.store.now()
	capAt, capKnown := c.probe.capFailures()
	s := c.summarize(now, capAt)
	for i, st := range api.States {
		ch <- prometheus.MustNewConstMetric(c.keys, prometheus.GaugeValue, float64(s.byState[i]), string(st))
	}
	age := 0.0
	if s.oldest != 0 && s.oldest < now {
		age = float64(now-s.oldest) / 1e9
	}
	ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, age)
	ch <- prometheus.MustNewConstMetric(c.maxFailures, prometheus.GaugeValue, float64(s.maxFailures))
	if capKnown {
		ch <- prometheus.MustNewConstMetric(c.atCap, prometheus.GaugeValue, float64(s.atCap))
	}
	f := &c.probe.forgets
	ch <- prometheus.MustNewConstMetric(c.forgets, prometheus.CounterValue, float64(f.requeued.Load()), ForgetRequeued)
	ch <- prometheus.MustNewConstMetric(c.forgets, prometheus.CounterValue, float64(f.reset.Load()), ForgetReset)
	c.worst.collect(ch, s.worst, now)
	c.probe.delays.collect(ch, c.delay)
}

// summary is what one scrape computes over all keys.
type summary struct {
	byState     []int // in api.States order
	oldest      int64 // start of the oldest unresolved failure, 0 for none
	maxFailures int
	atCap       int
	worst       []worstKey // the worst keys, worst first, when asked for
}

// summarize folds the store into a summary at now. capAt is the failure
// count from which the limiter's delay is its maximum (0: unknown).
func (c *collector[T]) summarize(now int64, capAt int) summary {
	s := summary{byState: make([]int, len(api.States))}
	var worst *worstKeys
	if c.worstN > 0 {
		worst = &worstKeys{n: c.worstN, top: make([]worstKey, 0, c.worstN)}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf, _ = c.probe.store.scan(context.Background(), now, c.buf, func(snaps []query.Item) error {
		for i := range snaps {
			k := &snaps[i]
			s.byState[stateIndex(k.State)]++
			s.maxFailures = max(s.maxFailures, k.Failures)
			start := k.FirstFailure
			if start == 0 && k.State == api.StateFailed {
				start = k.LastErrorAt
			}
			if start != 0 && (s.oldest == 0 || start < s.oldest) {
				s.oldest = start
			}
			// A failed key waits for no retry, whatever its counter says.
			if capAt > 0 && k.Failures >= capAt && k.State != api.StateFailed {
				s.atCap++
			}
			if worst != nil {
				worst.offer(k)
			}
		}
		return nil
	})
	if worst != nil {
		s.worst = worst.top
	}
	return s
}

// stateIndex is st's position in api.States, the verdicts a probe reports.
func stateIndex(st api.State) int {
	for i, v := range api.States {
		if v == st {
			return i
		}
	}
	return 0 // unreachable: the store reports only api.States
}

// capFailures is the consecutive-failure count from which the limiter's
// per-item exponential delay is its maximum: client-go's limiter waits
// base·2^(n-1) after the n-th failure, capped at max. It reports false for a
// limiter without an exponential component it can describe, or none yet.
func (p *TypedProbe[T]) capFailures() (int, bool) {
	p.mu.Lock()
	limiter := p.limiter
	p.mu.Unlock()
	if limiter == nil {
		return 0, false
	}
	for _, comp := range describeLimiter(limiter.inner).Components {
		if comp.Name != api.SourceItemExponential {
			continue
		}
		base, most := comp.BaseDelay.Duration, comp.MaxDelay.Duration
		if base <= 0 || most <= 0 {
			return 0, false
		}
		n := 1
		for d := float64(base); d < float64(most); d *= 2 {
			n++
		}
		return n, true
	}
	return 0, false
}
