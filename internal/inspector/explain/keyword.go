package explain

import (
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// KeyWord is what a key's controller says of its object, for
// objstatus.Verdict.JudgeKey: the one reading of it why and describe
// weigh an object without status by (a ConfigMap, a ClusterRole), so that
// neither says InProgress where the other says Failed. controller names
// it as the answer does; from is where the key was read ("its log").
func KeyWord(k api.Key, src *api.ListSource, controller, from string) objstatus.KeyWord {
	w := objstatus.KeyWord{Failing: k.State == api.StateBackoff, GaveUp: k.State == api.StateFailed, Quiet: k.State == api.StateUnknown,
		Controller: controller, Failures: FailuresText(k, src), From: from,
		Permanent: k.LastError != nil && k.LastError.Class == api.ClassPermanent}
	if w.GaveUp {
		w.Stopped = StoppedText(k)
	}
	return w
}

// StoppedText is how a controller stopped retrying a failed key, as a
// sentence's predicate: "gave up on it after 5 failures" (or "after 5
// retries", "(retry limit reached)"), or "failed on it with a terminal
// error" (after 3 failures, when there were more than one).
func StoppedText(k api.Key) string {
	if GaveUp(k) != nil {
		return "gave up on it " + strings.TrimPrefix(GaveUpText(k), "gave up ")
	}
	s := "failed on it with a terminal error"
	if k.TotalFailures > 1 {
		s += " after " + text.Plural(k.TotalFailures, "failure")
	}
	return s
}
