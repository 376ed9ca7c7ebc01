package ui

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestDetailDialogOneBucketNumber: a dialog opened over the detail says
// what the bucket makes a next failure wait from the controller the detail
// read, as the detail's own diagnosis does: the top view's overview, read
// a moment apart, had the bucket a token deeper ("100 tokens owed" under
// "101" over it).
func TestDetailDialogOneBucketNumber(t *testing.T) {
	for _, verb := range []string{"f", "r"} {
		m := loaded(t, 120, 40)
		row := m.tbl().Row("outage", "demo/outage-00003")
		if row == nil {
			t.Fatal("no demo/outage-00003 in the page")
		}
		ctl := *fixedOverview().Controller("outage")
		ctl.Limiter.Components = append([]api.LimiterComponent(nil), ctl.Limiter.Components...)
		owed := -100.0
		ctl.Limiter.Components[1].Tokens = &owed // the overview's holds 0.4
		det := &inspector.PodKeyDetail{KeyDetail: api.KeyDetail{ServerTime: t0, Key: *row}}
		d := &describe.Description{Key: det, Controller: &ctl}
		d.Diagnosis = explain.Explain(explain.Input{Key: det.Key, Controller: &ctl, Now: t0})
		m.pushView(modeDetail, view.Detail{C: m.c, Controller: "outage", Key: "demo/outage-00003"})
		m = send(t, m, view.DetailFetchedMsg{Controller: "outage", Key: "demo/outage-00003", Data: d, FetchedAt: t0})
		m = send(t, m, press(verb))
		if m.dialog() == nil {
			t.Fatalf("%s: no dialog over the detail", verb)
		}
		want := explain.NextFailureWait(&ctl)
		if !strings.Contains(want, "100 tokens owed") {
			t.Fatalf("the detail's forecast %q names no 100 tokens owed", want)
		}
		if s := strings.Join(m.dialog().Prompt(), " "); !strings.Contains(s, want) {
			t.Errorf("%s: the dialog over the detail says %q, not the detail's %q", verb, s, want)
		}
	}
}
