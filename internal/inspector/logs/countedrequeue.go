package logs

import (
	"regexp"
	"strconv"
	"strings"
)

// Some handlers log a failed attempt's requeue at info level, with the
// key and the queue's count but not the error: whereabouts' pod
// controller (pkg/controlloop/pod.go handleResult) logs "re-queuing IP
// address reconciliation request for pod NS/NAME; retry #: N" with
// NumRequeues, then AddRateLimited, and the error only on the line before,
// which names no key ("result of garbage collecting pods: ERR";
// batch21/2111). A message that opens with the requeue word, names one
// key and states a retry count is a failure of that key: the count is the
// queue's NumRequeues, which only a failed attempt's requeue reads
// (AddRateLimited), never a timed poll's (AddAfter) nor a success's
// (Forget). Its error is not stated: noErrorStated. The count N is the
// failures before this one, so with it the key has N+1.

// statedRetryNumber reads a retry count a message states after "retry #"
// ("retry #: 2", "retry #3") or "retry count" ("retry count: 11").
var statedRetryNumber = regexp.MustCompile(`(?i)\bretry (?:#|count):? ?(\d+)\b`)

// countedRequeue says msg opens (at opens) with the requeue words that
// retry finds, and states a retry count; n is that count plus one, the
// key's failures with this one.
func countedRequeue(msg string, opens int, retry []int) (n int, ok bool) {
	if retry == nil || retry[0] != opens {
		return 0, false
	}
	m := statedRetryNumber.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	c, err := strconv.Atoi(m[1])
	if err != nil || c < 0 {
		return 0, false
	}
	return c + 1, true
}

// countedRequeueWords open a counted requeue's evidence (errorbefore.go
// knows it by them).
const countedRequeueWords = "opens with the requeue and states the queue's retry count"

// countedRequeueEvidence says why a counted requeue was read as a failure.
func countedRequeueEvidence(n int) string {
	return countedRequeueWords + " (" + strconv.Itoa(n) +
		" failures with this one): a rate-limited requeue, which only a failed attempt has"
}

// kindFrom is where genericController looks for the kind a message names
// before its key at keyAt: from start, or, for a counted requeue, the one
// word just before the key ("… request for pod NS/NAME; retry #: 0":
// "pod"), the kind the same handler's drop line names ("dropping pod
// [NS/NAME] …"), so that both count under one controller.
func kindFrom(msg string, start, keyAt int, counted bool) int {
	if !counted || keyAt <= start {
		return start
	}
	head := strings.TrimRight(msg[:keyAt], " ")
	return strings.LastIndexByte(head, ' ') + 1
}
