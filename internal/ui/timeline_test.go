package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

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

// On screen, as the newcomer read naive-00001 after a forget: the labels
// count their rows, and with the note above the table they add up to the
// prose's "the same on the last 29 attempts".
func TestTimelineAfterForgetAddsUp(t *testing.T) {
	m := loaded(t, 80, 60)
	d := fixedDetail()
	k := &d.Key.Key
	msg := k.LastError.Message
	var hist []api.Attempt
	at := t0.Add(-10 * time.Minute)
	for i := range 16 {
		a := api.Attempt{At: at.Add(time.Duration(i) * time.Second), Outcome: api.OutcomeError, Trigger: api.TriggerRetry, Error: msg, Delay: dur(time.Second)}
		if i == 2 {
			a = api.Attempt{At: a.At, Outcome: api.OutcomeForgotten, Trigger: api.TriggerForget}
		}
		hist = append(hist, a)
	}
	k.History, k.Failures, k.SameErrorCount = hist, 13, 29
	m.push(modeDetail)
	m.detail = detailModel{c: m.c, controller: "naive", key: "demo/naive-00001"}
	m = send(t, m, detailFetchedMsg{controller: "naive", key: "demo/naive-00001", data: d, fetchedAt: t0})
	s := screen(m)
	for _, want := range []string{"the same on the last 29 attempts", "Attempts (last 16, oldest first) · 14 earlier, same error", "×2 spec.storageClass", "×13 spec.storageClass"} {
		if !strings.Contains(squashSpaces(s), want) {
			t.Errorf("the detail view does not show %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "×29") || strings.Contains(s, "×15") {
		t.Errorf("a label counts rows it does not span:\n%s", s)
	}
}

// squashSpaces is s with each run of spaces and line breaks made one space.
func squashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
