package explain

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// statedBefore is how many of a log-read key's failures the log states
// rather than shows: a handler that prints the queue's NumRequeues beside
// the retry ("failure 16", "retry count: 11") gives the limiter's count,
// and the key counts it (Failures 17 off one line), though the log holds
// one failure of it (TotalFailures). Zero when every failure counted is a
// line of the log.
func statedBefore(k api.Key) int {
	if k.Source != api.SourceLogs || k.TotalFailures == 0 || k.Failures <= k.TotalFailures {
		return 0
	}
	return k.Failures - k.TotalFailures
}

// statedCountText is FailuresText for a count the log states: "17 failures (1
// logged, 16 before it as the log states)".
func statedCountText(k api.Key, before int) string {
	it := "it"
	if k.TotalFailures > 1 {
		it = "them"
	}
	return fmt.Sprintf("%s (%d logged, %d before %s as the log states)", text.Plural(k.Failures, "failure"), k.TotalFailures, before, it)
}

// CountersText is describe's line of a key's counts: "3 consecutive
// failures, 7 in all, over 9 reconciles"; read off a log, its failures
// "in this log" (all it can know), or what the count is when it is not
// those lines: a count the log states, none since the controller gave
// up on the key, or requeues that were no error.
func CountersText(k api.Key, src *api.ListSource) string {
	reconciles := text.Plural(k.Reconciles, "reconcile")
	switch {
	case k.Source != api.SourceLogs:
		return fmt.Sprintf("%s, %d in all, over %s", FailuresText(k, src), k.TotalFailures, reconciles)
	case statedBefore(k) > 0:
		return fmt.Sprintf("%s, over %s", FailuresText(k, src), reconciles)
	case k.Failures == 0 && GaveUp(k) != nil:
		return fmt.Sprintf("none counted since the controller gave up; %s in this log, over %s", text.Plural(k.TotalFailures, "failure"), reconciles)
	case k.Failures > 0 && k.TotalFailures == 0 && k.LastError == nil:
		// The limiter counts a Requeue: true as it counts an error
		// (Crossplane's managed reconciler returns it): "1 consecutive
		// failure, 0 in this log" would read as a contradiction.
		return fmt.Sprintf("%s (Requeue: true, not an error), over %s", text.Plural(k.Failures, "rate-limited requeue"), reconciles)
	}
	return fmt.Sprintf("%s, %d in this log, over %s", FailuresText(k, src), k.TotalFailures, reconciles)
}
