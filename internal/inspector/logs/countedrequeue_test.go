package logs

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestCountedRequeue: a message that opens with the requeue word, names
// one key and states the queue's retry count is a failure of that key
// (countedrequeue.go), counted under the kind its drop line names —
// whereabouts' pod controller, batch21/2111 verbatim (three "re-queuing …
// retry #: N" at [verbose], then "dropping pod [KEY]" at [error]): four
// failures, given up. Without the count, without the requeue word first,
// or without one key, it is no failure.
func TestCountedRequeue(t *testing.T) {
	log := readTestdata(t, "testdata/batch21/2111-whereabouts-controlloop-ippool-not-found-retry-0-1-2-then-dropping-pod.log")
	var requeues []string
	for l := range strings.SplitSeq(log, "\n") {
		if strings.Contains(l, "] re-queuing ") {
			requeues = append(requeues, l)
		}
	}
	if len(requeues) != 3 {
		t.Fatalf("%d requeue lines in 2111, want 3", len(requeues))
	}
	first := requeues[0]
	const key = "radio/du-agent-7c4f9-m2x8q"
	for _, tt := range []struct {
		name     string
		log      string
		failures int // 0: no key
		state    api.State
		err      string
	}{
		{"the whole excerpt: three requeues and the drop", log, 4, api.StateFailed, "failed to get the IPPool data: ippool"},
		{"the requeues alone", strings.Join(requeues, "\n"), 3, api.StateBackoff, noErrorStated},
		{"no count", strings.TrimSuffix(first, "; retry #: 0"), 0, "", ""},
		{"not opening with the requeue", strings.Replace(first, "] re-queuing", "] not re-queuing", 1), 0, "", ""},
		{"no key", strings.Replace(first, key, "du-agent-7c4f9-m2x8q", 1), 0, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := readLog(t, corpusClock, tt.log)
			_, keys := s.views("")
			if tt.failures == 0 {
				if len(keys) != 0 {
					t.Fatalf("read %s %s, want no key", keys[0].Controller, keys[0].Key)
				}
				return
			}
			if len(keys) != 1 {
				t.Fatalf("read %d keys, want 1 (one controller for the requeues and the drop)", len(keys))
			}
			k := keys[0]
			if k.Controller != "pod" || k.Key != key || k.TotalFailures != tt.failures || k.State != tt.state ||
				k.LastError == nil || !strings.HasPrefix(k.LastError.Message, tt.err) {
				t.Errorf("read %s %s ×%d %s %+v, want pod %s ×%d %s %q…", k.Controller, k.Key, k.TotalFailures, k.State, k.LastError, key, tt.failures, tt.state, tt.err)
			}
		})
	}
}

// TestCountedRequeueNumber: the stated count is the failures before this
// one, in either form.
func TestCountedRequeueNumber(t *testing.T) {
	for _, tt := range []struct {
		msg string
		n   int // 0: not a counted requeue
	}{
		{"re-queuing IP address reconciliation request for pod ns/x; retry #: 2", 3},
		{"Requeuing ns/x (retry #0)", 1},
		{"requeuing ns/x, retry count: 11", 12},
		{"requeuing ns/x", 0},
		{"failed on ns/x; retry #: 2", 0},
	} {
		n, ok := countedRequeue(tt.msg, 0, retryPhrase.FindStringIndex(tt.msg))
		if !ok {
			n = 0
		}
		if n != tt.n {
			t.Errorf("%q: %d, want %d", tt.msg, n, tt.n)
		}
	}
}

// TestCountedRequeueErrorBefore: a counted requeue takes the error of the
// keyless line just before it, its attempt's result (errorbefore.go) —
// batch21/2113 verbatim, "result of garbage collecting pods: ERR" then
// "re-queuing … retry #: 0" — and not when another line comes between.
func TestCountedRequeueErrorBefore(t *testing.T) {
	lines := strings.Split(readTestdata(t, "testdata/batch21/2113-whereabouts-controlloop-get-pod-unavailable-twice-then-cleaned-up.log"), "\n")
	result, requeue := lines[7], lines[8]
	if !strings.Contains(result, "] result of garbage collecting pods: failed") || !strings.Contains(requeue, "] re-queuing ") {
		t.Fatalf("2113's lines 8 and 9 are not the result and its requeue:\n%s\n%s", result, requeue)
	}
	const stated = "failed to get pod to verify allocation: the server is currently unable to handle the request"
	for _, tt := range []struct {
		name  string
		lines []string
		err   string
	}{
		{"the result just before", []string{result, requeue}, stated},
		{"a line between", []string{result, lines[0], requeue}, noErrorStated},
		{"the requeue alone", []string{requeue}, noErrorStated},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, keys := readLog(t, corpusClock, tt.lines...).views("")
			if len(keys) != 1 || keys[0].LastError == nil || !strings.HasPrefix(keys[0].LastError.Message, tt.err) {
				t.Fatalf("read %+v, want one key, error %q…", keys, tt.err)
			}
		})
	}
}
