package inspector_test

import (
	"context"
	"strings"
	"testing"
	"time"

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
