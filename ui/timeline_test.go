package ui

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestWhy(t *testing.T) {
	for _, tt := range []struct {
		a    api.Attempt
		want string
	}{
		{api.Attempt{Trigger: api.TriggerFirst, Outcome: api.OutcomeError}, "first"},
		{api.Attempt{Trigger: api.TriggerRetry, Outcome: api.OutcomeError}, "retry"},
		{api.Attempt{Trigger: api.TriggerEvent, Outcome: api.OutcomeError}, "event"},
		{api.Attempt{Trigger: api.TriggerEvent, Preempted: true, Outcome: api.OutcomeError}, "event!"},
		{api.Attempt{Trigger: api.TriggerRequeueAfter, Outcome: api.OutcomeSuccess}, "req-after"},
		{api.Attempt{Trigger: api.TriggerForget, Outcome: api.OutcomeSuccess}, "forget"},
		{api.Attempt{Outcome: api.OutcomeForgotten}, "forget"},
		{api.Attempt{Outcome: api.OutcomeError}, "-"}, // an older endpoint: no trigger
	} {
		if got := why(tt.a); got != tt.want || len(got) > whyWidth {
			t.Errorf("why(%+v) = %q, want %q (at most %d cells)", tt.a, got, tt.want, whyWidth)
		}
	}
}
