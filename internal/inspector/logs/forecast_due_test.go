package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestForecastCountsDueRetries: a key whose retry time has passed but whose
// retry is not logged yet (within quietGrace) is still in backoff, its row
// saying "due"; the controller's forecast counts it due now, in its first
// second, not "none due".
func TestForecastCountsDueRetries(t *testing.T) {
	at := time.Date(2026, 12, 7, 5, 0, 0, 0, time.UTC)
	line := `{"level":"error","ts":"2026-12-07T05:00:00Z","msg":"Reconciler error","controller":"widget","namespace":"default","name":"w1","reconcileID":"a1","error":"connection refused"}` + "\n"
	clk := clocktesting.NewFakeClock(at.Add(time.Second)) // past the 5ms retry, within quietGrace
	s := NewStore(Options{Live: true, Clock: clk})
	if _, _, err := s.Read(context.Background(), strings.NewReader(line)); err != nil {
		t.Fatal(err)
	}
	list := s.Controllers()
	if len(list.Controllers) != 1 {
		t.Fatalf("controllers %+v, want widget", list.Controllers)
	}
	c := list.Controllers[0]
	if c.Counts[api.StateBackoff] != 1 {
		t.Fatalf("counts %v, want the key in backoff (its retry not yet quiet)", c.Counts)
	}
	if c.Forecast[0] != 1 || c.Pending != 1 {
		t.Errorf("forecast[0] = %d, pending %d; want the overdue retry counted due now (1, 1)", c.Forecast[0], c.Pending)
	}
}
