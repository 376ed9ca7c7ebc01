package logs

import (
	"regexp"
	"strconv"
)

// Two shapes of the work-queue idiom's maxRetries branch (client-go's
// examples: NumRequeues(key) < maxRetries, log, AddRateLimited), as
// kubernetes-retired/service-catalog logs it at V(4) info:
//
//	Error syncing ClusterServiceBroker nasty-broker (retry: 0/15): Get http://…: no such host
//
// the object named by its kind and bare name (a cluster-scoped key, not
// quoted), and the retry count with its budget.
var (
	// kindThenName: right after the failure phrase, a Kubernetes kind
	// (CamelCase: an upper-case letter, then letters) and a name that is a
	// DNS subdomain with a dash, a dot or a digit in it, so that an
	// ordinary word ("Error syncing Pod sandbox") is not taken for one.
	kindThenName = regexp.MustCompile(`^ ([A-Z][a-z]+(?:[A-Z][a-z]*)+|[A-Z][a-z]{2,}) ([a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?)(?:[ :,(]|$)`)
	nameMark     = regexp.MustCompile(`[-.0-9]`)
	// retryBudget: "retry: 3/15", "retry 3 of 15" — the queue's
	// NumRequeues before this failure and the handler's maxRetries.
	retryBudget = regexp.MustCompile(`(?i)\bretry:? ?(\d+) ?(?:/|of) ?(\d+)\b`)
)

// kindNameKey is the cluster-scoped key a message names by its kind and
// bare name right after its failure phrase, which ends at end; at is
// where the name starts.
func kindNameKey(msg string, end int) (name string, at int, ok bool) {
	m := kindThenName.FindStringSubmatchIndex(msg[end:])
	if m == nil || !nameMark.MatchString(msg[end+m[4]:end+m[5]]) {
		return echoedNameKey(msg, end)
	}
	return msg[end+m[4] : end+m[5]], end + m[4], true
}

// budgetedRetry is the count a "retry: N/M" states where the message
// says what failed (from msg[from:], opening before headEnd, where its
// first ": " cut the head), with N below its budget M: the handler
// requeued the key, and with this failure it has N+1. end is where the
// count ends: the error follows it, not its colon.
func budgetedRetry(msg string, from, headEnd int) (n, end int, ok bool) {
	m := retryBudget.FindStringSubmatchIndex(msg[from:])
	if m == nil || from+m[0] > headEnd {
		return 0, 0, false
	}
	done, err1 := strconv.Atoi(msg[from+m[2] : from+m[3]])
	max, err2 := strconv.Atoi(msg[from+m[4] : from+m[5]])
	if err1 != nil || err2 != nil || done >= max {
		return 0, 0, false
	}
	return done + 1, from + m[1], true
}

// kindNameOK says whether kindNameKey finds a key.
func kindNameOK(msg string, end int) bool {
	_, _, ok := kindNameKey(msg, end)
	return ok
}
