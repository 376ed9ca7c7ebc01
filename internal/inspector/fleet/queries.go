package fleet

import (
	"fmt"
	"strings"
)

// The series the probe exports (instrument/metrics.go), read back. They
// are spelt here again because the client side never links instrument;
// the end-to-end test reads a real probe's series through these names.
const (
	metricKeys          = "kubectl_backoff_keys"
	metricOldest        = "kubectl_backoff_oldest_failure_seconds"
	metricMaxFailures   = "kubectl_backoff_max_failures"
	metricKeysAtCap     = "kubectl_backoff_keys_at_cap"
	metricForgets       = "kubectl_backoff_forgets_total"
	metricWorstFailures = "kubectl_backoff_worst_key_failures"
	metricWorstRetry    = "kubectl_backoff_worst_key_retry_seconds"
	metricDelay         = "kubectl_backoff_rate_limiter_delay_seconds"
)

// columnLabel is the label each part of a panel's query is tagged with,
// so that one query answers a whole panel: its parts are joined with `or`,
// and the tag keeps them apart (and keeps `or` from dropping any).
const columnLabel = "backoff_column"

// The values of columnLabel.
const (
	colKeys        = "keys"
	colOldest      = "oldest_failure_seconds"
	colMaxFailures = "max_failures"
	colAtCap       = "keys_at_cap"
	colForgets     = "forgets_1d"
	colFailures    = "failures"
	colRetry       = "retry_seconds"
	colDelays      = "retries_1h"
	colDelaySum    = "delay_seconds_1h"
	colShortDelays = "short_retries_1h"
)

// LongDelayBound is the delay histogram's bucket bound, in seconds, under
// client-go's 1000s cap: the delays over it are counted as long.
const LongDelayBound = "655.36"

// delayWindow is the delay panel's window: an hour holds several retries of
// a key at client-go's 1000s cap.
const delayWindow = "1h"

// Panel is one query of a refresh: what it shows and its PromQL.
type Panel struct {
	Name  string `json:"name"`
	Query string `json:"query"`
}

// Panel names, as Queries returns them.
const (
	PanelControllers = "controllers"
	PanelWorstKeys   = "worst keys"
	PanelDelays      = "retry delays"
)

// Queries are the instant queries one read sends, one per panel (the
// table, the worst keys, the retry delays), for the
// label that names a cluster: the same whatever the number of controllers.
func Queries(clusterLabel string) []Panel {
	by := clusterLabel + ", namespace, controller"
	tag := func(expr, col string) string {
		return fmt.Sprintf(`label_replace(%s, "%s", "%s", "", "")`, expr, columnLabel, col)
	}
	// max by: every replica reports, a standby reports zeros. The
	// forgets are summed: each replica counts those it served. Zeros are
	// left out (a row's missing count is 0), so the answer grows with what
	// fails, not with the fleet: most controllers send only their idle
	// count and the two anchors, max_failures (every row has one) and
	// keys_at_cap (absent says the cap is unknown, 0 does not).
	controllers := strings.Join([]string{
		tag(fmt.Sprintf("max by (%s, state) (%s) > 0", by, metricKeys), colKeys),
		tag(fmt.Sprintf("max by (%s) (%s) > 0", by, metricOldest), colOldest),
		tag(fmt.Sprintf("max by (%s) (%s)", by, metricMaxFailures), colMaxFailures),
		tag(fmt.Sprintf("max by (%s) (%s)", by, metricKeysAtCap), colAtCap),
		tag(fmt.Sprintf("sum by (%s) (increase(%s[1d])) > 0", by, metricForgets), colForgets),
	}, "\nor ")
	worst := strings.Join([]string{
		tag(fmt.Sprintf("max by (%s, key, state) (%s)", by, metricWorstFailures), colFailures),
		tag(fmt.Sprintf("min by (%s, key, state) (%s)", by, metricWorstRetry), colRetry),
	}, "\nor ")
	// The rate limiter's delays of the last hour, summed over replicas
	// (only the leader's limiter delays anything): how many, their total
	// and how many waited at most the bucket under client-go's 1000s cap
	// (655.36s); the reader divides and subtracts (mean, long retries),
	// so that each series is read once: one increase of _count, _sum and
	// one bucket a controller, not the 21 buckets a quantile reads (a
	// histogram_quantile over a fleet's every bucket cost three times the
	// table's query at 3,000 controllers, TestFleetAtScale). A controller
	// that delayed nothing has no increase and is left out.
	delays := strings.Join([]string{
		tag(fmt.Sprintf("sum by (%s) (increase(%s_count[%s])) > 0", by, metricDelay, delayWindow), colDelays),
		tag(fmt.Sprintf("sum by (%s) (increase(%s_sum[%s])) > 0", by, metricDelay, delayWindow), colDelaySum),
		tag(fmt.Sprintf(`sum by (%s) (increase(%s_bucket{le="%s"}[%s])) > 0`, by, metricDelay, LongDelayBound, delayWindow), colShortDelays),
	}, "\nor ")
	return []Panel{{Name: PanelControllers, Query: controllers}, {Name: PanelWorstKeys, Query: worst}, {Name: PanelDelays, Query: delays}}
}
