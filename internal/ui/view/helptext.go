package view

import (
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// What the ? view explains, beside the keys of the view it was opened over.

// Sorts are the orders s cycles through, the default first: keys still
// retrying first, then trouble of any kind, then the endpoint's others.
var Sorts = append([]string{api.SortRetrying, api.SortAttention}, slices.DeleteFunc(slices.Clone(api.Sorts), func(s string) bool {
	return s == api.SortRetrying || s == api.SortAttention
})...)

// SortHelp says what each order puts first.
var SortHelp = map[string]string{
	api.SortRetrying:  "retrying: keys still retrying first, longest failing on top; terminal failures below them",
	api.SortAttention: "attention: failing and failed keys first, longest failing on top",
	api.SortNext:      "next: the soonest retry first (the NEXT RETRY column counting down), then queued and running keys, whose retry has come",
	api.SortFailures:  "failures: most consecutive failures first",
	api.SortKey:       "key: by controller, then key",
	api.SortSince:     "since: the longest failure streak first",
}

// columnHelp explains every column the table can show.
var columnHelp = [][2]string{
	{"STATE", "what the key is doing now (see States)"},
	{"CONTROLLER", "the controller that tracks the key (when several are shown)"},
	{"POD", "the replica that reported it (wide terminals, several replicas)"},
	{"KEY", "the work queue key: namespace/name"},
	{"FAILS", "consecutive failures, as the rate limiter counts them (0 after a forget or success; a terminal error is not counted, so a key failed by one at once shows 0)"},
	{"NEXT RETRY", "(NEXT on narrower terminals) backoff/scheduled: time to the next retry in whole seconds, rounded down (<1s in the last), due once come; queued: ready; running: for how long"},
	{"DELAY", "the delay the limiter chose for the current wait"},
	{"SOURCE", "which limiter chose it: item-exponential, bucket, requeue-after, limiter (the controller's own); stated: a delay the log states in its own words; spread: a forget --requeue --spread released it at its slot; spacing (log mode): estimated from the spacing of the key's own failure lines, when that is over a second past the assumed limiter's delay; waited (log mode): twice the delay the failure's line states its attempt waited in the queue; doubling (log mode): twice the key's last gap, when its failure gaps double slower than the assumed limiter's; item-fixed (log mode): a limiter that waits the same interval after every failure; queue (log mode): the retry time controller-runtime's priority queue logged for the key, exact"},
	{"TOTAL", "failures since the key was first seen (wide terminals)"},
	{"FAILING FOR", "how long the current failure streak has lasted (a forget restarts the count, not the streak)"},
	{"LAST CHANGE", "time since the controller last saw the object change: a watch event (an add to its queue that was not a retry), not a Kubernetes Event"},
	{"LAST ERROR", "the error of the last failed reconcile; ✓ before it: a reconcile has succeeded since, the error is history"},
	{"ERROR", "g view: the group's last error; <number>, <address>, <id> and <name> stand for what its keys' errors differ in (a quoted name keeps its quotes: \"<name>\"), and … marks a cut, as in every table"},
	{"WHY", "detail view: what ran the attempt — first, retry (its delay came due), event (a watch event; event! when it came before a pending retry), req-after (a RequeueAfter came due), forget (a retry now); from a log without its successes, sooner? (before its retry: an event, or a success not logged) and late? (after it: a success not logged, or no free worker); - when nobody knows: a key's first attempt in a log, which may start mid-stream"},
}

// headerHelp explains the header's lines that do not explain themselves.
var headerHelp = [][2]string{
	{"worst of N", "\"worst of N controllers in trouble: naive — …\": N controllers have keys in trouble (backing off or failed), and the line diagnoses the worst of them (an outage or a permanent error before mere retries); the rows follow the sort instead, and when the first row is another controller's the line says so: \"(rows: longest failing first)\"; a diagnosis too long for one line takes two, whole but for the middle of the error it quotes (whole in g), or ending \"… ? shows it whole\": then help starts with it; tab switches to each controller in turn"},
	{"limiters", "each controller's rate limiter in brief: exp 5ms..16m40s is per-item exponential (base..cap), bucket 87/100 a token bucket's tokens left of its burst; when they do not all fit, the line takes turns, a screenful every " + widget.LimiterCycle.String() + ", and (1 of 3) says which is shown"},
}

// markHelp explains every mark.
var markHelp = [][2]string{
	{"•", "the row changed since the previous refresh"},
	{"✓", "LAST ERROR: resolved, a reconcile has succeeded since"},
	{"*", "estimated: reconstructed from logs, not recorded"},
	{"│▁▃█│", "the forecast, \"due in 60s\": how many keys fall due in each second (2s or more when narrow) of the next 60s, each at its next due time: backoff keys' retries and scheduled keys' RequeueAfter re-checks alike"},
	{"leader", "the replica that runs the controllers; standby replicas wait for the lease"},
	{"×N ″", "detail view, Attempts: the same error N times in a row; ″ under it for each repeat"},
	{"·", "separates the items of a line"},
}

// StateHelp says what each state means.
var StateHelp = map[api.State]string{
	api.StateBackoff:   "errored; retried at NEXT RETRY, after the rate limiter's delay or its forget --spread slot",
	api.StateScheduled: "RequeueAfter: a planned re-check, not a failure",
	api.StateQueued:    "ready, waiting for a free worker",
	api.StateRunning:   "a reconcile is in progress",
	api.StateFailed:    "terminal error: not retried until the object changes",
	api.StateIdle:      "the last reconcile succeeded and nothing is pending: only a change to the object or a resync runs it again",
	api.StateUnknown:   "log only: a retry or re-check was due and nothing about the key was logged since; it may have succeeded (at the default verbosity successes are not logged)",
}
