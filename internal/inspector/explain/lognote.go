package explain

import (
	"strconv"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// LogKeyNote says in words where a key's numbers come from when they come
// from a log: what the log is, from where its failures are counted, how
// its delays are known, and whether it shows successes.
type LogKeyNote struct {
	// Source is what the numbers are read from.
	Source string
	// Counted is from where the failures are counted, without its end: a
	// command names the flag that sets the read's start after it.
	Counted string
	// Lines are the rest, one sentence each.
	Lines []string
}

// LogNote is k's LogKeyNote, read with the list's source src (nil when it
// said none) and its controller c (nil when not known); ok is false for a
// key an endpoint serves.
func LogNote(k api.Key, src *api.ListSource, c *api.Controller) (n LogKeyNote, ok bool) {
	if k.Source != api.SourceLogs {
		return n, false
	}
	n.Source = "the controller's log, not its queue."
	if k.Estimated {
		n.Source = "the controller's log, not its queue: every number is an estimate."
	}
	n.Counted = "Failures count the consecutive failure lines since the log read starts"
	switch {
	case k.DelaySource == api.SourceQueue:
		n.Lines = append(n.Lines, "The next retry is the priority queue's own (its workqueue_items line, logged every 10s at V(5)): exact, not estimated.")
	case !k.Estimated && k.DelayWords != "":
		// In the log's own words (escaped: the log's text), not a phrase of
		// another project's.
		n.Lines = append(n.Lines, "The next retry is stated by the log ("+strconv.QuoteToGraphic(k.DelayWords)+"): exact, not estimated.")
	case !k.Estimated:
		n.Lines = append(n.Lines, "The next retry is stated by the log: exact, not estimated.")
	case k.DelaySource == api.SourceBucket:
		n.Lines = append(n.Lines, "Delays and the next retry are estimated: the controller's token bucket (10 qps, burst 100), replayed over its failure lines, chose it.")
	case k.DelaySource == api.SourceSpacing:
		n.Lines = append(n.Lines, "Delays and the next retry are estimated from the spacing of the key's own failures (longer than the default limiter's).")
	case k.DelaySource == api.SourceDoubling:
		n.Lines = append(n.Lines, "Delays and the next retry are estimated from the doubling gaps of the key's own failures (a per-item exponential's, twice the last gap).")
	case k.DelaySource == api.SourceWaited:
		n.Lines = append(n.Lines, "Delays and the next retry are estimated from the delay the key's last failure line states its attempt waited (a per-item exponential's next step, twice it).")
	default:
		n.Lines = append(n.Lines, "Delays and the next retry are estimated with the default per-item exponential (5ms·2^(n−1), cap 16m40s),",
			"or its project's own where the log's dialect knows it: the diagnosis above names the one used.")
	}
	if src != nil && src.Verbose {
		// V(5) lines, or a project that logs its successes (Flux; Crossplane in debug).
		n.Lines = append(n.Lines, "Successes are in this log: a failure streak ends at the next one.")
		return n, true
	}
	n.Lines = append(n.Lines, `This log shows no successes: a key quiet past its retry is "unknown", not idle`)
	if how, _ := successesHowFor(k, src, c); how != "" {
		// As the dialect advises: a project whose lines read no success
		// (cert-manager, prometheus-operator) is told of no level, nor a
		// controller of kube-controller-manager's that logs none (its
		// HPA's), though others of it do, nor a controller the generic
		// reader read (another's dialect's level).
		n.Lines = append(n.Lines, "(at "+how+" the controller logs its successes too, and they are read).")
	}
	return n, true
}
