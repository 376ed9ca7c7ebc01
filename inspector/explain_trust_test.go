package inspector_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A forget resets the failure streak, not the run of the same error: the
// transient finding dates the run from its first attempt, not from the
// streak's start a moment ago (it said "the same on the last 13 attempts
// since 10:52:58 (1ms)").
func TestTransientRunSpansAForget(t *testing.T) {
	const msg = "GET https://inventory/v1/items: 503 Service Unavailable"
	r := newReplica(t, instrument.HandlerOptions{})
	w := r.controller("widget")
	first := r.clock.Now()
	for range 6 {
		w.fail(t, "default/w1", 1, msg)
		r.clock.Step(time.Minute)
	}
	s := inspector.NewSession([]*inspector.Endpoint{r.endpoint(t, "ctrl-0")}, nil)
	ctx := context.Background()
	if _, err := s.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"default/w1"}}); err != nil {
		t.Fatalf("Forget: %v", err)
	}
	r.clock.Step(time.Minute)
	w.fail(t, "default/w1", 2, msg)

	d, err := s.Describe(ctx, "widget", "default/w1", nil)
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	if k := d.Key.Key; k.Failures != 2 || k.SameErrorCount != 8 {
		t.Fatalf("failures %d, same error ×%d; want 2 and 8 (the run spans the forget)", k.Failures, k.SameErrorCount)
	}
	var finding string
	for _, f := range d.Diagnosis.Findings {
		if f.Code == inspector.FindingTransient {
			finding = f.Message
		}
	}
	want := "the same on the last 8 attempts since " + first.UTC().Format("15:04:05") + " (7m00s)"
	if !strings.Contains(finding, want) {
		t.Errorf("transient finding = %q, want it to contain %q", finding, want)
	}
}

// "The last change arrived at …; the reconcile that saw it ended at …"
// names the reconcile that saw the change, not the last retry since (it
// read as a 41s lag), and says the last reconcile in a clause of its own.
func TestExplainEditNamesTheReconcileThatSawTheChange(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 11, 49, 42, 0, time.UTC)
	attempt := func(at time.Duration, outcome string) api.Attempt {
		return api.Attempt{At: t0.Add(at), Outcome: outcome, Duration: metav1.Duration{Duration: time.Millisecond}}
	}
	k := api.Key{Controller: "widget", Key: "demo/naive-00000", State: api.StateBackoff, Failures: 3,
		LastEventAt: t0, LastReconcileAt: t0.Add(41 * time.Second),
		LastError: &api.ErrorRecord{Message: "boom", At: t0.Add(41 * time.Second)},
		History: []api.Attempt{
			attempt(-time.Minute, api.OutcomeSuccess),
			attempt(2*time.Millisecond, api.OutcomeError),
			attempt(10*time.Second, api.OutcomeError),
			attempt(41*time.Second, api.OutcomeError),
		}}
	d := inspector.Explain(inspector.ExplainInput{Key: k, Now: t0.Add(time.Minute)})
	want := "The last change arrived at 11:49:42; the reconcile that saw it ended at 11:49:42; the last reconcile ended at 11:50:23."
	if !slices.Contains(d.Details, want) {
		t.Errorf("details = %q, want %q", d.Details, want)
	}
}

// With the token bucket in debt (retries already queued on it), the next
// delay is the bucket's, not the per-item 40ms, and it stays what a failure
// now would wait as the retry comes near: the keys whose retries fall due
// meanwhile fail again and borrow back the tokens the refill repaid. The
// old forecast ("tokens at the retry, refilled until then") shrank, 6s 4s
// from the retry, 2s at it, while every real wait stayed 10s (issue #23).
func TestExplainNextDelayCountsAnEmptyBucket(t *testing.T) {
	now := time.Date(2026, 11, 30, 11, 50, 0, 0, time.UTC)
	tokens := -99.0 // 100 retries queued on a 10 qps bucket
	c := &api.Controller{Name: "outage", Active: true, Limiter: api.Limiter{Components: []api.LimiterComponent{
		{Name: api.SourceItemExponential, BaseDelay: metav1.Duration{Duration: 5 * time.Millisecond}, MaxDelay: metav1.Duration{Duration: 1000 * time.Second}},
		{Name: api.SourceBucket, QPS: 10, Burst: 100, Tokens: &tokens},
	}}}
	k := api.Key{Controller: "outage", Key: "demo/outage-00003", State: api.StateBackoff, Failures: 3,
		Delay: metav1.Duration{Duration: 10 * time.Second}, DelaySource: api.SourceBucket, NextRetryAt: now.Add(4 * time.Second),
		LastError: &api.ErrorRecord{Message: "503 Service Unavailable", At: now.Add(-6 * time.Second), Class: api.ClassTransient}}
	// -99 tokens: a failure borrows the 100th, repaid in 100/10 = 10s.
	want := "if it fails again, the one after waits about 10s: the token bucket decides, not the failure count (99 retries queued on it, refilled at 10 per second)"
	for _, left := range []time.Duration{4 * time.Second, 2 * time.Second, 300 * time.Millisecond} {
		k.NextRetryAt = now.Add(left)
		d := inspector.Explain(inspector.ExplainInput{Key: k, Controller: c, Now: now})
		if !strings.Contains(d.Summary, want) {
			t.Errorf("%v before the retry: summary = %q, want it to contain %q", left, d.Summary, want)
		}
	}
	tokens = 100 // a full bucket: the per-item delay
	d := inspector.Explain(inspector.ExplainInput{Key: k, Controller: c, Now: now})
	if want := "the one after waits at least " + inspector.FormatDuration(40*time.Millisecond); !strings.Contains(d.Summary, want) {
		t.Errorf("with a full bucket: summary = %q, want it to contain %q", d.Summary, want)
	}
}
