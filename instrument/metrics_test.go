package instrument

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// metricsHeader is the HELP and TYPE lines of every series, in the order
// the text format sorts them.
const metricsHeader = `
# HELP kubectl_backoff_forgets_total Keys whose backoff was reset through the endpoint, by what followed.
# TYPE kubectl_backoff_forgets_total counter
# HELP kubectl_backoff_keys Keys tracked by kubectl-backoff's probe, by state.
# TYPE kubectl_backoff_keys gauge
# HELP kubectl_backoff_keys_at_cap Keys retrying at the per-item exponential limiter's maximum delay.
# TYPE kubectl_backoff_keys_at_cap gauge
# HELP kubectl_backoff_max_failures Highest consecutive-failure count of any key.
# TYPE kubectl_backoff_max_failures gauge
# HELP kubectl_backoff_oldest_failure_seconds Age in seconds of the oldest unresolved failure of any key (0 if none is failing).
# TYPE kubectl_backoff_oldest_failure_seconds gauge
# HELP kubectl_backoff_rate_limiter_delay_seconds How long in seconds the controller's rate limiter delayed items before adding them back to the queue (the delay When returned).
# TYPE kubectl_backoff_rate_limiter_delay_seconds histogram
`

// TestMetricsSeries drives a client-go controller's probe (a real limiter
// and classic queue, the store on a fake clock) into every state, forgets
// through the endpoint, and reads the series exactly as Prometheus would.
func TestMetricsSeries(t *testing.T) {
	t0 := time.Date(2030, 1, 2, 3, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakePassiveClock(t0)
	ep := newTestEndpoint(t)
	prom := prometheus.NewPedanticRegistry()
	p := NewTyped("foo", TypedOptions[string]{Registry: ep.Registry, Clock: clk, UsePriorityQueue: ptr.To(false), MetricsRegisterer: prom})
	// A minute doubling up to 8: the 4th failure in a row waits the cap, and
	// no real delay runs out while the test runs, so the queue hands out
	// only what the test makes ready.
	rl := p.RateLimiter(NewExponentialLimiter[string](time.Minute, 8*time.Minute))
	q := p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(rl, workqueue.TypedRateLimitingQueueConfig[string]{Name: "foo"}))
	t.Cleanup(q.ShutDown)

	errDown := errors.New("dependency down")
	// sync runs key as sample-controller's worker does.
	sync := func(key string, err error) {
		switch got := p.Track(key, func() error { return err }); {
		case got == nil:
			q.Forget(key)
		case !isTerminalErr(got):
			q.AddRateLimited(key)
		}
	}
	at := func(d time.Duration) { clk.SetTime(t0.Add(d)) }

	sync("ns/stuck", errDown)
	at(10 * time.Minute)
	sync("ns/stuck", errDown)
	at(20 * time.Minute)
	sync("ns/stuck", errDown)
	at(30 * time.Minute)
	sync("ns/broken", reconcile.TerminalError(errors.New("spec.size: must be positive")))

	at(time.Hour)
	sync("ns/stuck", errDown) // the 4th: at the cap, failing for an hour
	sync("ns/flaky", errDown)
	sync("ns/ok", nil)
	sync("ns/forgotten", errDown)
	sync("ns/forgotten", errDown)
	ep.forget(api.ForgetRequest{Controller: "foo", Keys: []string{"ns/forgotten"}})
	ep.forget(api.ForgetRequest{Controller: "foo", Keys: []string{"ns/flaky"}, DryRun: true})
	sync("ns/requeued", errDown)
	ep.forget(api.ForgetRequest{Controller: "foo", Keys: []string{"ns/requeued"}, Requeue: true})
	if got, _ := q.Get(); got != "ns/requeued" { // the only ready key: now running
		t.Fatalf("queue handed out %q, want ns/requeued", got)
	}
	sync("ns/later", nil)
	q.AddAfter("ns/later", 5*time.Minute)
	q.Add("ns/new")

	want := metricsHeader + `
kubectl_backoff_forgets_total{controller="foo",outcome="requeued"} 1
kubectl_backoff_forgets_total{controller="foo",outcome="reset"} 1
kubectl_backoff_keys{controller="foo",state="backoff"} 3
kubectl_backoff_keys{controller="foo",state="failed"} 1
kubectl_backoff_keys{controller="foo",state="idle"} 1
kubectl_backoff_keys{controller="foo",state="queued"} 1
kubectl_backoff_keys{controller="foo",state="running"} 1
kubectl_backoff_keys{controller="foo",state="scheduled"} 1
kubectl_backoff_keys_at_cap{controller="foo"} 1
kubectl_backoff_max_failures{controller="foo"} 4
kubectl_backoff_oldest_failure_seconds{controller="foo"} 3600
` + delaysAt1h
	if err := testutil.GatherAndCompare(prom, strings.NewReader(want)); err != nil {
		t.Errorf("at 1h:\n%v", err)
	}

	// The stuck key succeeds at last: the oldest failure is now the broken
	// key's terminal error, half an hour old, and nothing is at the cap.
	at(time.Hour + 10*time.Minute)
	sync("ns/stuck", nil)
	sync("ns/flaky", nil)
	for _, name := range []string{MetricOldestFailure, MetricKeysAtCap, MetricMaxFailures} {
		want := map[string]string{
			MetricOldestFailure: `kubectl_backoff_oldest_failure_seconds{controller="foo"} 2400`,
			MetricKeysAtCap:     `kubectl_backoff_keys_at_cap{controller="foo"} 0`,
			MetricMaxFailures:   `kubectl_backoff_max_failures{controller="foo"} 0`,
		}[name]
		if err := testutil.GatherAndCompare(prom, strings.NewReader(headerOf(name)+want+"\n"), name); err != nil {
			t.Errorf("after the stuck key succeeds: %v", err)
		}
	}
}

// delaysAt1h is the delay histogram at 1h: eight AddRateLimited, each
// When's delay a minute doubling to the 8m cap. ns/stuck waited 1m, 2m, 4m,
// 8m; ns/forgotten 1m, 2m; ns/flaky and ns/requeued 1m (the terminal error
// is not retried): 4 of 60s under 81.92, 2 of 120s, one of 240s and one of
// 480s, 1200s in all.
var delaysAt1h = func() string {
	var b strings.Builder
	cum := map[string]int{"81.92": 4, "163.84": 6, "327.68": 7, "655.36": 8, "1000": 8, "+Inf": 8}
	for _, le := range []string{"0.005", "0.01", "0.02", "0.04", "0.08", "0.16", "0.32", "0.64", "1.28", "2.56", "5.12",
		"10.24", "20.48", "40.96", "81.92", "163.84", "327.68", "655.36", "1000", "+Inf"} {
		fmt.Fprintf(&b, "kubectl_backoff_rate_limiter_delay_seconds_bucket{controller=\"foo\",le=%q} %d\n", le, cum[le])
	}
	b.WriteString("kubectl_backoff_rate_limiter_delay_seconds_sum{controller=\"foo\"} 1200\n")
	b.WriteString("kubectl_backoff_rate_limiter_delay_seconds_count{controller=\"foo\"} 8\n")
	return b.String()
}()

// headerOf is metricsHeader's HELP and TYPE lines of the series name.
func headerOf(name string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(metricsHeader, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[2] == name {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestMetricsRealController reads the series of a real controller-runtime
// controller, on both queues, through a failure, a terminal error and a
// forget that retries the failing key into success.
func TestMetricsRealController(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		begin := time.Now()
		h := startController(t, pq, NewExponentialLimiter[reconcile.Request](longBackoff, longBackoff),
			func(_ context.Context, key string, call int) (reconcile.Result, error) {
				switch {
				case key == "default/down" && call == 1:
					return reconcile.Result{}, errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
				case key == "default/bad":
					return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.size: must be positive"))
				}
				return reconcile.Result{}, nil
			})
		prom := prometheus.NewPedanticRegistry()
		prom.MustRegister(newCollector(h.probe, h.ep.Registry))
		for _, key := range []string{"default/down", "default/bad", "default/ok"} {
			h.send(key)
		}
		h.wait("default/down", "backoff", func(k api.KeyDetail) bool { return k.State == api.StateBackoff && k.Failures == 1 })
		h.wait("default/bad", "failed", func(k api.KeyDetail) bool { return k.State == api.StateFailed })
		h.wait("default/ok", "idle", func(k api.KeyDetail) bool { return k.State == api.StateIdle })
		compare := func(when, series string) {
			t.Helper()
			names := []string{MetricKeys, MetricMaxFailures, MetricKeysAtCap, MetricForgets}
			var want strings.Builder
			for _, n := range names {
				want.WriteString(headerOf(n))
			}
			want.WriteString(series)
			if err := testutil.GatherAndCompare(prom, strings.NewReader(want.String()), names...); err != nil {
				t.Errorf("%s:\n%v", when, err)
			}
			// The terminal error is the oldest failure either way: its age is
			// what passed since it, on the real clock.
			if age, limit := valueOf(t, prom, MetricOldestFailure), time.Since(begin).Seconds(); age <= 0 || age > limit {
				t.Errorf("%s: %s = %g, want in (0, %g]", when, MetricOldestFailure, age, limit)
			}
		}
		compare("failing", `
kubectl_backoff_forgets_total{controller="widget",outcome="requeued"} 0
kubectl_backoff_forgets_total{controller="widget",outcome="reset"} 0
kubectl_backoff_keys{controller="widget",state="backoff"} 1
kubectl_backoff_keys{controller="widget",state="failed"} 1
kubectl_backoff_keys{controller="widget",state="idle"} 1
kubectl_backoff_keys{controller="widget",state="queued"} 0
kubectl_backoff_keys{controller="widget",state="running"} 0
kubectl_backoff_keys{controller="widget",state="scheduled"} 0
kubectl_backoff_keys_at_cap{controller="widget"} 1
kubectl_backoff_max_failures{controller="widget"} 1
`)
		h.ep.forget(api.ForgetRequest{Controller: ctrlName, Keys: []string{"default/down"}, Requeue: true})
		// The classic queue still holds the hour-long wait of the failure,
		// so the key runs once more: scheduled rather than idle.
		settled, idle, scheduled := api.StateIdle, 2, 0
		if !pq {
			settled, idle, scheduled = api.StateScheduled, 1, 1
		}
		h.wait("default/down", string(settled)+" after the retry", func(k api.KeyDetail) bool { return k.State == settled && k.Reconciles == 2 })
		compare("after forget", fmt.Sprintf(`
kubectl_backoff_forgets_total{controller="widget",outcome="requeued"} 1
kubectl_backoff_forgets_total{controller="widget",outcome="reset"} 0
kubectl_backoff_keys{controller="widget",state="backoff"} 0
kubectl_backoff_keys{controller="widget",state="failed"} 1
kubectl_backoff_keys{controller="widget",state="idle"} %d
kubectl_backoff_keys{controller="widget",state="queued"} 0
kubectl_backoff_keys{controller="widget",state="running"} 0
kubectl_backoff_keys{controller="widget",state="scheduled"} %d
kubectl_backoff_keys_at_cap{controller="widget"} 0
kubectl_backoff_max_failures{controller="widget"} 0
`, idle, scheduled))
	})
}

// valueOf is the value of the one series named name gathered from g.
func valueOf(t *testing.T, g prometheus.Gatherer, name string) float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no single series %s gathered", name)
	return 0
}

// seriesOf counts the series gathered from g that carry controller=name.
func seriesOf(t *testing.T, g prometheus.Gatherer, name string) int {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	n := 0
	for _, mf := range mfs {
		if !strings.HasPrefix(mf.GetName(), "kubectl_backoff_") {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" && l.GetValue() == name {
					n++
				}
			}
		}
	}
	return n
}

// TestMetricsRegistration: controller-runtime's registry by default, none
// when disabled, a probe of the same name replaces the earlier one's
// series, and a probe removed from its registry stops reporting.
func TestMetricsRegistration(t *testing.T) {
	const perController = 12 // 6 states, oldest, max, at cap, 2 forget outcomes, the delay histogram
	t.Run("default", func(t *testing.T) {
		reg := NewRegistry()
		p := New("metrics-default", Options{Registry: reg})
		p.RateLimiter(nil)
		t.Cleanup(func() { ctrlmetrics.Registry.Unregister(newCollector(p, reg)) })
		if got := seriesOf(t, ctrlmetrics.Registry, "metrics-default"); got != perController {
			t.Errorf("controller-runtime's registry has %d series of the probe, want %d", got, perController)
		}
	})
	t.Run("disabled", func(t *testing.T) {
		New("metrics-disabled", Options{Registry: NewRegistry(), DisableMetrics: true})
		if got := seriesOf(t, ctrlmetrics.Registry, "metrics-disabled"); got != 0 {
			t.Errorf("DisableMetrics: controller-runtime's registry has %d series of the probe, want 0", got)
		}
	})
	t.Run("replace-and-remove", func(t *testing.T) {
		reg := NewRegistry()
		prom := prometheus.NewPedanticRegistry()
		old := NewTyped("foo", TypedOptions[string]{Registry: reg, MetricsRegisterer: prom})
		old.RateLimiter(nil).When("ns/a")
		p := NewTyped("foo", TypedOptions[string]{Registry: reg, MetricsRegisterer: prom})
		p.RateLimiter(nil)
		// The text the new, empty probe reports, not the old one's failure.
		want := headerOf(MetricMaxFailures) + `kubectl_backoff_max_failures{controller="foo"} 0` + "\n"
		if err := testutil.GatherAndCompare(prom, strings.NewReader(want), MetricMaxFailures); err != nil {
			t.Errorf("after a second probe named foo:\n%v", err)
		}
		if got := seriesOf(t, prom, "foo"); got != perController {
			t.Errorf("after a second probe named foo: %d series, want %d", got, perController)
		}
		reg.Remove("foo")
		if got := seriesOf(t, prom, "foo"); got != 0 {
			t.Errorf("after Remove: %d series of foo, want 0", got)
		}
	})
	t.Run("custom-limiter", func(t *testing.T) {
		prom := prometheus.NewPedanticRegistry()
		p := NewTyped("foo", TypedOptions[string]{Registry: NewRegistry(), MetricsRegisterer: prom})
		p.RateLimiter(workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second))
		// Its cap is unknown: no series rather than a wrong 0.
		if got := seriesOf(t, prom, "foo"); got != perController-1 {
			t.Errorf("custom limiter: %d series, want %d (no %s)", got, perController-1, MetricKeysAtCap)
		}
	})
}

// TestCapFailures checks the failure count at which each limiter the probe
// knows reaches its maximum delay against the real limiter's delays.
func TestCapFailures(t *testing.T) {
	for _, c := range []struct {
		name    string
		limiter workqueue.TypedRateLimiter[string] // nil: RateLimiter is never called
		want    int                                // 0: unknown
		// fresh is a new limiter of the same kind, for the check, or nil.
		fresh func() workqueue.TypedRateLimiter[string]
		max   time.Duration
	}{
		{name: "not-instrumented"},
		{name: "default-priority-queue", limiter: NewExponentialLimiter[string](DefaultBaseDelay, DefaultMaxDelay), want: 19,
			fresh: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemExponentialFailureRateLimiter[string](DefaultBaseDelay, DefaultMaxDelay)
			}, max: DefaultMaxDelay},
		{name: "default-classic-queue", limiter: DefaultControllerLimiter[string](), want: 19},
		{name: "jitter", limiter: NewJitterLimiter[string](NewExponentialLimiter[string](time.Second, 8*time.Second), 0.25), want: 4,
			fresh: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Second, 8*time.Second)
			}, max: 8 * time.Second},
		{name: "base-is-max", limiter: NewExponentialLimiter[string](time.Hour, time.Hour), want: 1},
		{name: "base-over-max", limiter: NewExponentialLimiter[string](time.Hour, time.Minute), want: 1,
			fresh: func() workqueue.TypedRateLimiter[string] {
				return workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Hour, time.Minute)
			}, max: time.Minute},
		{name: "custom", limiter: workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := NewTyped("foo", TypedOptions[string]{Registry: NewRegistry(), DisableMetrics: true})
			if c.limiter != nil {
				p.RateLimiter(c.limiter)
			}
			got, ok := p.capFailures()
			if ok != (c.want > 0) || got != c.want {
				t.Errorf("capFailures() = %d, %v; want %d, %v", got, ok, c.want, c.want > 0)
			}
			if c.fresh == nil {
				return
			}
			l := c.fresh()
			for n := 1; n <= c.want; n++ {
				d := l.When("k")
				if atCap := d >= c.max; atCap != (n == c.want) {
					t.Errorf("failure %d waits %v: at the cap %v is %v, want %v", n, d, c.max, atCap, n == c.want)
				}
			}
		})
	}
}
