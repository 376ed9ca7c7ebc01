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

// "The last change … was reconciled at" names the reconcile that saw the
// change, not the last retry since (it read as a 41s lag).
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
	want := "The last change arrived at 11:49:42 and was reconciled at 11:49:42 (the last reconcile since, at 11:50:23)."
	if !slices.Contains(d.Details, want) {
		t.Errorf("details = %q, want %q", d.Details, want)
	}
}
