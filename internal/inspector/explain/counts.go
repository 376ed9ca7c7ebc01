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
	if since, why, ok := restartedCount(k, src); ok {
		return fmt.Sprintf("%s, %d logged in all, over %s (%s)", since, k.TotalFailures, reconciles, why)
	}
	return fmt.Sprintf("%s, %d in this log, over %s", FailuresText(k, src), k.TotalFailures, reconciles)
}

// FailureCountsText is why's line of a key's counts: CountersText without
// the reconciles ("3 consecutive failures, 7 in all"), and, read off a log
// that holds an earlier streak too, the two numbers said for what they
// are: "1 since the count restarted at 06:33:27, 2 logged in all (…)",
// never "1 failure logged since 06:33:27, 2 in all", which reads as a
// contradiction.
func FailureCountsText(k api.Key, src *api.ListSource) string {
	if since, why, ok := restartedCount(k, src); ok {
		return fmt.Sprintf("%s, %d logged in all (%s)", since, k.TotalFailures, why)
	}
	switch {
	case statedBefore(k) > 0:
		return FailuresText(k, src) // says how many are logged: "5 failures (3 logged, …)"
	case k.Source == api.SourceLogs:
		return fmt.Sprintf("%s, %d in this log", FailuresText(k, src), k.TotalFailures)
	}
	return fmt.Sprintf("%s, %d in all", FailuresText(k, src), k.TotalFailures)
}

// restartedCount is a log-read key's count when the log holds failures
// before its count restarted (TotalFailures above Failures): since says
// the count and from when ("1 since the count restarted at 06:33:27"),
// why what restarted it: a forget or a give-up the log shows, or a
// success it does not show, inferred from a failure too late to be the
// retry of the one before, or from a fresh ramp. ok is false when every
// failure logged is counted, or the count is not the log's lines (one the
// log states, requeues that were no error).
func restartedCount(k api.Key, src *api.ListSource) (since, why string, ok bool) {
	if !unlogged(k, src) || statedBefore(k) > 0 || k.Failures == 0 || k.TotalFailures <= k.Failures {
		return "", "", false
	}
	n := text.Plural(k.Failures, "failure")
	if r := k.LastReset; r != nil && !r.At.Before(k.FirstFailureAt) {
		by := "the " + r.By
		if r.By == api.ResetGaveUp {
			by = "the controller gave up"
		}
		return fmt.Sprintf("%s since %s at %s", n, by, text.TimeOfDay(r.At)),
			fmt.Sprintf("%s reset the count; the %d before were counted then", by, k.TotalFailures-k.Failures), true
	}
	if k.FirstFailureAt.IsZero() {
		return n + " since the count restarted", "the failures before it are an earlier streak", true
	}
	since = fmt.Sprintf("%s since the count restarted at %s", n, text.TimeOfDay(k.FirstFailureAt))
	why = "the failures before it are an earlier streak"
	for _, a := range k.History {
		if !a.At.Equal(k.FirstFailureAt) {
			continue
		}
		switch a.Trigger {
		case api.TriggerLate:
			why = "that failure came too long after the one before to be its retry, so it is read as following a success the log does not show"
		case api.TriggerNewStreak:
			why = "a fresh ramp of retries began there, which only a success the log does not show explains"
		}
	}
	return since, why, true
}
