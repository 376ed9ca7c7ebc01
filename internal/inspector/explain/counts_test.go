package explain_test

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestFailureCountsText: the two counts of why's Failures line say what
// each is. Read off a log whose count restarted within it, the first is the
// failures since the restart (and what restarted it), the second all the
// log holds; never "1 failure logged since …, 2 in all".
func TestFailureCountsText(t *testing.T) {
	late := api.Key{Source: api.SourceLogs, State: api.StateBackoff, Failures: 1, TotalFailures: 2, FirstFailureAt: at(0),
		History: []api.Attempt{{At: at(-20 * time.Second), Outcome: api.OutcomeError}, {At: at(0), Outcome: api.OutcomeError, Trigger: api.TriggerLate}}}
	ramp := late
	ramp.Failures, ramp.TotalFailures = 4, 9
	ramp.History = []api.Attempt{{At: at(0), Outcome: api.OutcomeError, Trigger: api.TriggerNewStreak}}
	forgot := late
	forgot.Failures, forgot.TotalFailures, forgot.FirstFailureAt = 2, 7, at(-time.Hour)
	forgot.LastReset = &api.Reset{At: at(-time.Minute), By: api.ResetForget, Failures: 5}
	whole := late
	whole.Failures, whole.FirstFailureAt = 2, at(-20*time.Second)
	exact := api.Key{State: api.StateBackoff, Failures: 3, TotalFailures: 7}
	for _, tt := range []struct {
		name string
		k    api.Key
		want string
	}{
		{"late failure", late, "1 failure since the count restarted at 10:00:00, 2 logged in all (that failure came too long after the one before to be its retry, so it is read as following a success the log does not show)"},
		{"fresh ramp", ramp, "4 failures since the count restarted at 10:00:00, 9 logged in all (a fresh ramp of retries began there, which only a success the log does not show explains)"},
		{"forget", forgot, "2 failures since the forget at 09:59:00, 7 logged in all (the forget reset the count; the 5 before were counted then)"},
		{"every failure counted", whole, "2 failures logged since 09:59:40, 2 in this log"},
		{"instrumented", exact, "3 consecutive failures, 7 in all"},
	} {
		if got := explain.FailureCountsText(tt.k, nil); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
