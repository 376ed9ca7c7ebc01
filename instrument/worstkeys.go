package instrument

import (
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"github.com/prometheus/client_golang/prometheus"
)

// This file is the one per-key export, and it is opt-in
// (TypedOptions.WorstKeys): a controller's N worst keys, so that a fleet
// view reads them from Prometheus without a port-forward. Its cost is
// 2·N series per replica, and churn: a key that enters the N makes new
// series, the one it displaces goes stale.

// The series of TypedOptions.WorstKeys, labels "controller", "key", "state".
const (
	// MetricWorstKeyFailures is a gauge of a worst key's consecutive
	// failures.
	MetricWorstKeyFailures = "kubectl_backoff_worst_key_failures"
	// MetricWorstKeyRetry is a gauge of the seconds until a worst key's
	// next retry (0: none pending, as for a failed key).
	MetricWorstKeyRetry = "kubectl_backoff_worst_key_retry_seconds"
)

// Bounds of TypedOptions.WorstKeys.
const (
	// DefaultWorstKeys is a good WorstKeys: the keys a screen shows under
	// a controller's row.
	DefaultWorstKeys = 10
	// MaxWorstKeys caps WorstKeys, and so the series it costs.
	MaxWorstKeys = 20
)

// worstKeysOf is the number of worst keys to export for opts' value:
// none for 0 or less, at most MaxWorstKeys.
func worstKeysOf(n int) int { return min(max(n, 0), MaxWorstKeys) }

// worstKey is one key kept by a scrape's selection.
type worstKey struct {
	key                     string
	state                   api.State
	failures                int
	firstFailure, nextRetry int64
}

// worse reports whether a ranks before b: more failures in a row, then
// the longer failing (an earlier first failure), then by name, so that a
// scrape's choice among equals is stable.
func worse(a, b *worstKey) bool {
	if a.failures != b.failures {
		return a.failures > b.failures
	}
	if a.firstFailure != b.firstFailure {
		return a.firstFailure != 0 && (b.firstFailure == 0 || a.firstFailure < b.firstFailure)
	}
	return a.key < b.key
}

// worstKeys keeps the n worst of the keys offered, worst first.
type worstKeys struct {
	n   int
	top []worstKey
}

// offer considers k, whose item is reused after the scan's batch: the key
// is copied only when it is kept (a few hundred times in a scrape of
// 100,000 keys, whatever their order).
func (w *worstKeys) offer(k *query.Item) {
	if k.Failures == 0 && k.State != api.StateFailed {
		return // nothing wrong with it
	}
	c := worstKey{key: k.Key, state: k.State, failures: k.Failures, firstFailure: k.FirstFailure, nextRetry: k.NextRetry}
	if len(w.top) == w.n && !worse(&c, &w.top[len(w.top)-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(w.top, c, func(e, t worstKey) int {
		if worse(&e, &t) {
			return -1
		}
		return 1
	})
	c.key = strings.Clone(c.key)
	if len(w.top) == w.n {
		w.top = w.top[:len(w.top)-1]
	}
	w.top = slices.Insert(w.top, i, c)
}

// worstDescs are the descriptions of the worst-key series.
type worstDescs struct{ failures, retry *prometheus.Desc }

func newWorstDescs(l prometheus.Labels) worstDescs {
	return worstDescs{
		failures: prometheus.NewDesc(MetricWorstKeyFailures,
			"Consecutive failures of one of the controller's worst keys (Options.WorstKeys).", []string{"key", "state"}, l),
		retry: prometheus.NewDesc(MetricWorstKeyRetry,
			"Seconds until the next retry of one of the controller's worst keys (0: none pending).", []string{"key", "state"}, l),
	}
}

// collect sends two series per kept key, at now.
func (d worstDescs) collect(ch chan<- prometheus.Metric, top []worstKey, now int64) {
	for i := range top {
		k := &top[i]
		retry := 0.0
		if k.nextRetry > now && k.state != api.StateFailed {
			retry = float64(k.nextRetry-now) / 1e9
		}
		ch <- prometheus.MustNewConstMetric(d.failures, prometheus.GaugeValue, float64(k.failures), k.key, string(k.state))
		ch <- prometheus.MustNewConstMetric(d.retry, prometheus.GaugeValue, retry, k.key, string(k.state))
	}
}
