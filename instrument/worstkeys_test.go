package instrument

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
)

// TestWorstKeysSeries: with WorstKeys the probe exports its N worst keys,
// most failures first, with their state and seconds to the next retry,
// and replaces them as keys change; without it, nothing per key.
func TestWorstKeysSeries(t *testing.T) {
	t0 := time.Date(2030, 1, 2, 3, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakePassiveClock(t0)
	for _, tc := range []struct {
		worst       int
		want, after []string
	}{
		{0, nil, nil},
		{2, []string{
			`kubectl_backoff_worst_key_failures{controller="foo",key="ns/a",state="backoff"} 3`,
			`kubectl_backoff_worst_key_failures{controller="foo",key="ns/b",state="backoff"} 2`,
			`kubectl_backoff_worst_key_retry_seconds{controller="foo",key="ns/a",state="backoff"} 60`,
			`kubectl_backoff_worst_key_retry_seconds{controller="foo",key="ns/b",state="backoff"} 60`,
		}, []string{
			// The delaying queue keeps a key's earliest retry: the first 60s, 30s ago.
			`kubectl_backoff_worst_key_failures{controller="foo",key="ns/b",state="backoff"} 2`,
			`kubectl_backoff_worst_key_failures{controller="foo",key="ns/c",state="backoff"} 1`,
			`kubectl_backoff_worst_key_retry_seconds{controller="foo",key="ns/b",state="backoff"} 30`,
			`kubectl_backoff_worst_key_retry_seconds{controller="foo",key="ns/c",state="backoff"} 30`,
		}},
	} {
		t.Run(fmt.Sprint(tc.worst), func(t *testing.T) {
			clk.SetTime(t0)
			ep := newTestEndpoint(t)
			prom := prometheus.NewPedanticRegistry()
			p := NewTyped("foo", TypedOptions[string]{Registry: ep.Registry, Clock: clk, UsePriorityQueue: ptr.To(false),
				MetricsRegisterer: prom, WorstKeys: tc.worst})
			rl := p.RateLimiter(NewExponentialLimiter[string](time.Minute, time.Hour))
			q := p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(rl, workqueue.TypedRateLimitingQueueConfig[string]{Name: "foo"}))
			t.Cleanup(q.ShutDown)
			fail := func(key string, n int) {
				for range n {
					_ = p.Track(key, func() error { return errors.New("down") })
					q.AddRateLimited(key)
				}
			}
			fail("ns/c", 1)
			fail("ns/a", 3)
			fail("ns/b", 2)
			_ = p.Track("ns/ok", func() error { return nil })
			got := worstLines(t, prom)
			if e, a := strings.Join(tc.want, "\n"), strings.Join(got, "\n"); e != a {
				t.Errorf("series:\nwant\n%s\ngot\n%s", e, a)
			}
			// ns/a recovers: it leaves the worst keys, ns/c takes its place.
			clk.SetTime(t0.Add(30 * time.Second))
			_ = p.Track("ns/a", func() error { return nil })
			q.Forget("ns/a")
			got = worstLines(t, prom)
			if e, a := strings.Join(tc.after, "\n"), strings.Join(got, "\n"); e != a {
				t.Errorf("after ns/a recovered:\nwant\n%s\ngot\n%s", e, a)
			}
		})
	}
}

// worstLines are the worst-key series of a scrape of reg, sorted.
func worstLines(t *testing.T, reg *prometheus.Registry) []string {
	t.Helper()
	n, err := testutil.GatherAndCount(reg, MetricWorstKeyFailures, MetricWorstKeyRetry)
	if err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mf := range mfs {
		if !strings.HasPrefix(mf.GetName(), "kubectl_backoff_worst_key") {
			continue
		}
		for _, m := range mf.GetMetric() {
			var l []string
			for _, lp := range m.GetLabel() {
				l = append(l, fmt.Sprintf("%s=%q", lp.GetName(), lp.GetValue()))
			}
			out = append(out, fmt.Sprintf("%s{%s} %g", mf.GetName(), strings.Join(l, ","), m.GetGauge().GetValue()))
		}
	}
	if len(out) != n {
		t.Fatalf("counted %d series, listed %d", n, len(out))
	}
	return out
}

// TestWorstKeysSelection: the selection keeps the n worst whatever the
// order they come in, ignores keys with nothing wrong, and copies the keys
// it keeps (a scan reuses its items).
func TestWorstKeysSelection(t *testing.T) {
	items := []query.Item{
		{Key: "ok", State: api.StateIdle},
		{Key: "f1", State: api.StateBackoff, Failures: 1, FirstFailure: 50},
		{Key: "f5", State: api.StateBackoff, Failures: 5, FirstFailure: 10},
		{Key: "term", State: api.StateFailed, FirstFailure: 0},
		{Key: "f5old", State: api.StateBackoff, Failures: 5, FirstFailure: 5},
		{Key: "f3", State: api.StateBackoff, Failures: 3, FirstFailure: 20},
	}
	w := &worstKeys{n: 3}
	for i := range items {
		w.offer(&items[i])
		items[i].Key = "overwritten"
	}
	var got []string
	for _, k := range w.top {
		got = append(got, k.key)
	}
	if e, a := "f5old f5 f3", strings.Join(got, " "); e != a {
		t.Errorf("want %q, got %q", e, a)
	}
	if e, a := 20, worstKeysOf(50); e != a {
		t.Errorf("worstKeysOf(50): want %d, got %d", e, a)
	}
}
