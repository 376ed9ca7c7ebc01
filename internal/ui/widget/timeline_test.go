package widget

import (
	"fmt"
	"slices"
	"strings"
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

// A run label counts the rows it labels; a forget row ends a run on screen
// (the wire's SameErrorCount runs on across it), and what the wire counts
// before the kept history is said once, above the table.
func TestErrorRunsCountTheirRows(t *testing.T) {
	const a, b = "spec.storageClass must be set", "get storage class: context deadline exceeded"
	errs := func(msg string, n int) []api.Attempt {
		var out []api.Attempt
		for range n {
			out = append(out, api.Attempt{Outcome: api.OutcomeError, Error: msg})
		}
		return out
	}
	forget := []api.Attempt{{Outcome: api.OutcomeForgotten, Trigger: api.TriggerForget}}
	success := []api.Attempt{{Outcome: api.OutcomeSuccess}}
	cat := func(parts ...[]api.Attempt) []api.Attempt { return slices.Concat(parts...) }
	for _, tt := range []struct {
		name       string
		hist       []api.Attempt
		same       int
		wantLabels []int // the ×N of each run, oldest first; 1 for a run of one, 0 for no error
		wantBefore int
	}{
		// The demo's naive-00001 after a forget: 29 on the wire, 2+13 kept.
		{"forget inside the run", cat(errs(a, 2), forget, errs(a, 13)), 29, []int{2, 0, 13}, 14},
		{"one run reaching back", errs(a, 16), 20, []int{16}, 4},
		{"one run, all kept", cat(success, errs(a, 5)), 5, []int{0, 5}, 0},
		{"another error before", cat(errs(b, 1), errs(a, 15)), 17, []int{1, 15}, 0},
		{"a success breaks the wire's run", cat(errs(a, 2), success, errs(a, 3)), 3, []int{2, 0, 3}, 0},
		{"an older endpoint without a count", errs(a, 4), 0, []int{4}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k := &api.Key{SameErrorCount: tt.same, LastError: &api.ErrorRecord{Message: a}}
			cells, before := errorRuns(tt.hist, k)
			var labels []int
			for i, c := range cells {
				if strings.HasPrefix(c, "  ″") {
					continue
				}
				n := 1
				if _, err := fmt.Sscanf(c, "×%d ", &n); err != nil && tt.hist[i].Error == "" {
					n = 0
				}
				labels = append(labels, n)
			}
			if !slices.Equal(labels, tt.wantLabels) || before != tt.wantBefore {
				t.Errorf("runs %v, %d before the history; want %v, %d\n%q", labels, before, tt.wantLabels, tt.wantBefore, cells)
			}
		})
	}
}
