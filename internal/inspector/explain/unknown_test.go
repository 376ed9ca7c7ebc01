package explain_test

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A controller read from its log whose keys failed and logged nothing
// since their retries came (api.StateUnknown) is not healthy with "none
// failing": at the default verbosity a success is not logged, so they may
// still fail. The diagnosis says what the log shows, whether all its keys
// are unknown (fluxcd/flux2#4509's two Kustomizations judged at the clock,
// a year after their "next try in 30m0s") or some.
func TestDiagnoseControllerUnknownKeys(t *testing.T) {
	logged := func(keys int, counts map[api.State]int) api.Controller {
		return api.Controller{Name: "kustomization", Active: true, Keys: keys, Counts: counts}
	}
	tests := []struct {
		name    string
		c       api.Controller
		verbose bool
		want    string
	}{{
		name: "all unknown",
		c:    logged(2, map[api.State]int{api.StateUnknown: 2}),
		want: "unknown: no failure logged since their retries for 2 keys: their state is unknown (this log shows no successes)",
	}, {
		name: "one unknown",
		c:    logged(1, map[api.State]int{api.StateUnknown: 1}),
		want: "unknown: no failure logged since its retry for 1 key: its state is unknown (this log shows no successes)",
	}, {
		name:    "some unknown, the others converged",
		c:       logged(5, map[api.State]int{api.StateUnknown: 2, api.StateIdle: 3}),
		verbose: true,
		want:    "unknown: no failure logged since their retries for 2 of 5 keys: their state is unknown (the log shows successes, and none since); none of the others failing",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := explain.DiagnoseController(tt.c, &api.ListSource{Kind: api.SourceLogs, Verbose: tt.verbose}, nil, diagNow)
			if d.Situation != explain.SituationUnknown || d.Summary != tt.want {
				t.Errorf("got %s: %q\nwant %s: %q", d.Situation, d.Summary, explain.SituationUnknown, tt.want)
			}
			if explain.InTrouble(&tt.c) != 0 {
				t.Errorf("InTrouble = %d: unknown keys are not known to fail", explain.InTrouble(&tt.c))
			}
		})
	}
}
