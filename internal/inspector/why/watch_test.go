package why

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// stuckAnswer is the quota case after the raise: the ReplicaSet's
// controller sees the change at its retry, due at retryAt.
func stuckAnswer(retryAt time.Time) *Answer {
	rs := &Answer{Object: Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "q", Name: "web-1", Key: "q/web-1"},
		Retry: &Retry{Changed: Object{APIVersion: "v1", Kind: "ResourceQuota", Namespace: "q", Name: "q"}, Controller: "replicaset-controller",
			Watches: "no", NextRetry: retryAt, Kick: "kubectl backoff kick --kind ReplicaSet.apps q/web-1"}}
	return &Answer{Object: Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "q", Name: "web", Key: "q/web"},
		Verdict: Verdict{Status: InProgress}, Summary: "InProgress: it waits for replicaset.apps/web-1", Blockers: []*Answer{rs}}
}

// TestWatchRetryDue: an answer that only waits for a retry says so, and is
// judged again when the retry is due (a fake clock: no sleep); the object
// then Current, the watch ends.
func TestWatchRetryDue(t *testing.T) {
	start := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakeClock(start)
	answers := []*Answer{stuckAnswer(start.Add(time.Minute)), {Verdict: Verdict{Status: Current}, Summary: "Current"}}
	var got []Update
	stops := 0
	w := &Watch{Clock: clk,
		Ask: func(context.Context) (*Answer, error) { a := answers[0]; answers = answers[1:]; return a, nil },
		Changes: func(context.Context, *Answer) (<-chan struct{}, func(), error) {
			return make(chan struct{}), func() { stops++ }, nil
		},
		Emit: func(u Update) { got = append(got, u) }}
	done := make(chan error)
	go func() { done <- w.Run(context.Background()) }()
	waitFor(t, clk)
	if len(got) != 1 || got[0].Cause != "first" {
		t.Fatalf("updates %+v; want the first answer", got)
	}
	want := "waits only for a retry: the change to resourcequota/q is seen at the replicaset-controller's next retry, at 09:01:00 (in 1m0s), or now with: `kubectl backoff kick --kind ReplicaSet.apps q/web-1`"
	if got[0].RetryWait != want {
		t.Errorf("retry wait\n%s\nwant\n%s", got[0].RetryWait, want)
	}
	clk.Step(time.Minute + retryMargin)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Cause != "retry due" || !got[1].Done || stops != 1 {
		t.Errorf("updates %+v, %d watches stopped; want the Current answer after the retry, the watch stopped", got, stops)
	}
}

// TestWatchChangesAppended: a change re-judges; an answer the same as the
// one before up to its digits (a countdown) is not printed again; Ctrl-C
// (the context) ends the watch cleanly, its watch stopped.
func TestWatchChangesAppended(t *testing.T) {
	start := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakeClock(start)
	same := stuckAnswer(time.Time{})
	same.Summary = "InProgress: it waits for replicaset.apps/web-1, next retry in 40s"
	again := stuckAnswer(time.Time{})
	again.Summary = "InProgress: it waits for replicaset.apps/web-1, next retry in 38s"
	other := stuckAnswer(time.Time{})
	other.Summary = "InProgress: it waits for pod/web-1-x, which is Pending"
	answers := []*Answer{same, again, other}
	changes := make(chan struct{})
	watching := make(chan struct{}, 3) // Changes is called once the answer is emitted
	var got []Update
	stops := 0
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watch{Clock: clk,
		Ask: func(context.Context) (*Answer, error) { a := answers[0]; answers = answers[1:]; return a, nil },
		Changes: func(context.Context, *Answer) (<-chan struct{}, func(), error) {
			watching <- struct{}{}
			return changes, func() { stops++ }, nil
		},
		Emit: func(u Update) { got = append(got, u) }}
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	<-watching
	changes <- struct{}{}
	<-watching
	changes <- struct{}{}
	<-watching
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Ctrl-C: %v; want a clean end", err)
	}
	var causes []string
	for _, u := range got {
		causes = append(causes, u.Cause+": "+u.Answer.Summary)
	}
	if want := "first: " + same.Summary + "\nchanged: " + other.Summary; strings.Join(causes, "\n") != want {
		t.Errorf("updates\n%s\nwant\n%s", strings.Join(causes, "\n"), want)
	}
	if stops != 3 {
		t.Errorf("%d watches stopped; want each of the 3", stops)
	}
}

// waitFor waits until the watch waits on the clock (it has emitted and
// set its retry timer), within a deadline.
func waitFor(t *testing.T, clk *clocktesting.FakeClock) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !clk.HasWaiters() {
		if time.Now().After(deadline) {
			t.Fatal("the watch never waited for the retry")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRetryWaitBackoff: a blocker still failing (no change of the user's
// yet) is not "only a retry"; its next retry is said, and timed, with how
// exact it is and what the user can do rather than wait: read off a log,
// which cannot reset a backoff (no endpoint to forget it through), the kick
// or the fix of the cause; an endpoint that requeues, its forget.
func TestRetryWaitBackoff(t *testing.T) {
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	a := stuckAnswer(time.Time{})
	rs := a.Blockers[0]
	rs.Retry = nil
	rs.Backoff = &Backoff{Source: SourceLogs, Controller: "replicaset-controller", RetryNow: "kubectl backoff kick --kind ReplicaSet.apps q/web-1",
		Key: &api.Key{Key: "q/web-1", Source: api.SourceLogs, Estimated: true, State: api.StateBackoff, Failures: 12, TotalFailures: 12,
			NextRetryAt: now.Add(20 * time.Second), LastError: &api.ErrorRecord{Message: "exceeded quota: q"}}}
	due, say := retryWait(a, now)
	if want := "waits for replicaset.apps/web-1, which the replicaset-controller retries at 09:00:20 (in 20s, estimated), backing off after 12 failures logged; " +
		"a backoff read from a log cannot be reset: retry now with `kubectl backoff kick --kind ReplicaSet.apps q/web-1` (touches the object; the failure count is kept), or fix what the error names"; !due.Equal(now.Add(20*time.Second)) || say != want {
		t.Errorf("due %v,\n%q;\nwant 09:00:20,\n%q", due, say, want)
	}
	if strings.Contains(say, "forget") {
		t.Errorf("a log's key offers a forget: %q", say)
	}
	if due, _ := retryWait(a, now.Add(time.Minute)); !due.IsZero() {
		t.Errorf("a retry past is due %v; want none (no timer in the past)", due)
	}
	// The object's own key failing (a ConfigMap its operator fails on): it
	// does not wait "for configmap/web", which it is.
	self := &Answer{Object: Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "web", Key: "team-a/web"},
		Backoff: &Backoff{Source: SourceEndpoint, Controller: "configmap", RetryNow: "kubectl backoff forget deploy/op -n ops --requeue --controller configmap team-a/web",
			Key: &api.Key{Key: "team-a/web", State: api.StateBackoff, Failures: 18, NextRetryAt: now.Add(10 * time.Minute)}}}
	if _, say := retryWait(self, now); say != `waits for its next retry, which controller "configmap" makes at 09:10:00 (in 10m0s, exact), backing off after 18 consecutive failures; or now with: `+"`kubectl backoff forget deploy/op -n ops --requeue --controller configmap team-a/web`" {
		t.Errorf("its own key: %q", say)
	}
}

// TestSummaryKeepsRetryNow: the summary of a key read off a log leaves its
// retry-now command for the watch, a kick, never a forget.
func TestSummaryKeepsRetryNow(t *testing.T) {
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	a := &Answer{Now: now, Object: Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "web", Key: "team-a/web"},
		Verdict: Verdict{Status: InProgress},
		Backoff: &Backoff{Source: SourceLogs, Controller: "configmap",
			Key: &api.Key{Key: "team-a/web", Source: api.SourceLogs, Estimated: true, State: api.StateBackoff, Failures: 2, TotalFailures: 2, NextRetryAt: now.Add(time.Second)}}}
	summarize(a, CommandHint{})
	if want := "kubectl backoff kick --kind ConfigMap team-a/web"; a.Backoff.RetryNow != want {
		t.Errorf("retry now %q, want %q", a.Backoff.RetryNow, want)
	}
}

// TestFingerprintSteps: an answer whose steps alone changed ("Change
// resourcequota/q" becoming the wait for a retry) is a new answer; one
// whose steps differ only in a countdown is not.
func TestFingerprintSteps(t *testing.T) {
	a, b, c := stuckAnswer(time.Time{}), stuckAnswer(time.Time{}), stuckAnswer(time.Time{})
	a.Next = []string{"Change resourcequota/q -n q, not the object: exceeded: pods: used 0 of hard 0, 1 requested."}
	b.Next = []string{"Your change to resourcequota/q came after the last failure: retry in about 12s."}
	c.Next = []string{"Your change to resourcequota/q came after the last failure: retry in about 9s."}
	if fingerprint(a, "") == fingerprint(b, "") {
		t.Error("new steps, same fingerprint: the watch would not print them")
	}
	if fingerprint(b, "") != fingerprint(c, "") {
		t.Error("a countdown alone made a new answer")
	}
	// What is printed is the same: the chain below it changed alone (the
	// Deployment's stale ReplicaFailure cleared, a quota that was shown no
	// longer reached), twice the same block on a real cluster.
	c.Next = b.Next
	c.Chain = &Chain{Root: &Node{Object: c.Object, Status: InProgress, Below: []*Node{{Object: Object{APIVersion: "v1", Kind: "ResourceQuota", Name: "q"}, Status: Current}}}}
	if fingerprint(b, "") != fingerprint(c, "") {
		t.Error("the same words printed twice: a chain change alone made a new answer")
	}
	if fingerprint(b, "waits only for a retry") == fingerprint(b, "") {
		t.Error("a new wait for a retry, same fingerprint")
	}
}
