package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// A drill-down keeps the user's filter and adds the group's error pattern;
// esc after it restores the view as it was before it: the filter, the
// controller, the state toggles, no group, and the key under the cursor;
// a second esc then clears the user's own filter, as esc always does.
func TestDrillDownEscRestoresTheView(t *testing.T) {
	m := loaded(t, 120, 30)
	m.setTop(func(t *view.Top) { t.Filter.Set("outage") })
	m = send(t, m, press("3"), press("j"))
	sel := m.tbl().Sel
	m, _ = act(t, m, view.ShowGroupIntent{Controller: "naive", Errors: "~^spec$", Fingerprint: "spec", States: []api.State{api.StateBackoff, api.StateFailed}})
	m, _ = act(t, m, view.ShowGroupIntent{Controller: "naive", Errors: "~^other$", Fingerprint: "other", States: []api.State{api.StateFailed}})
	if q := m.tbl().Query(); m.tbl().Controller != "naive" || q.Q != "outage" || q.Error != "~^other$" {
		t.Fatalf("drill-down: controller %q, query q %q error %q; want naive, the user's filter, the group's pattern", m.tbl().Controller, q.Q, q.Error)
	}
	m = send(t, m, press("esc"))
	if e, a := "outage", m.tbl().Filter.Applied; e != a {
		t.Errorf("filter after esc: want %q, got %q", e, a)
	}
	if m.tbl().Controller != "" {
		t.Errorf("controller after esc: %q, want all", m.tbl().Controller)
	}
	if q := m.tbl().Query(); q.Error != "" {
		t.Errorf("error pattern after esc: %q, want none", q.Error)
	}
	if e, a := []api.State{api.StateQueued}, m.tbl().StateList(); !slices.Equal(e, a) {
		t.Errorf("states after esc: want %v, got %v", e, a)
	}
	if m.tbl().Sel != sel {
		t.Errorf("cursor after esc follows %q, want %q as before the drill-down", m.tbl().Sel, sel)
	}
	if want := `left the error group: showing keys matching "outage" in state queued of every controller again`; m.status != want {
		t.Errorf("status %q, want %q", m.status, want)
	}
	if m = send(t, m, press("esc")); m.tbl().Filter.Applied != "" || m.tbl().StateList() == nil {
		t.Errorf("a second esc: filter %q, states %v; want the filter cleared, the states kept", m.tbl().Filter.Applied, m.tbl().StateList())
	}
}

// act runs an intent through the root, as a view returning it would.
func act(t *testing.T, m Model, in view.Intent) (Model, tea.Cmd) {
	t.Helper()
	next, cmd := m.act(in, nil)
	return next.(Model), cmd
}

// The group view's footer names what f and r do there: act on the group.
func TestGroupFooterSaysGroup(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("g"), fixedGroups())
	lines := splitLines(screen(m))
	footer := lines[len(lines)-1]
	if !strings.Contains(footer, "f forget group") || !strings.Contains(footer, "r retry group") || strings.Contains(footer, "forget key") {
		t.Errorf("group footer %q: want f forget group, r retry group", footer)
	}
	if d := m.c.Keys.Forget.Help().Desc; d != "forget key" {
		t.Errorf("the group view renamed the top view's f too: %q", d)
	}
}

// One group of one key is counted in the singular.
func TestGroupViewSingular(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("g"))
	list := &api.ErrorGroupList{ServerTime: t0, Total: 1, Matched: 1, Groups: []api.ErrorGroup{
		{Controller: "naive", Fingerprint: "spec.storageClass must be set", Count: 1, FirstSeen: t0, LastSeen: t0, Examples: []string{"demo/naive-00001"}},
	}}
	m = send(t, m, view.GroupsFetchedMsg{Seq: m.grp().Seq, List: list})
	s := screen(m)
	if !strings.Contains(s, "1 distinct error over 1 key in backoff,failed") || strings.Contains(s, "1 keys") {
		t.Errorf("want singulars:\n%s", s)
	}
}

// At 80 columns, the query line keeps what the user chose to see — states,
// filter, a drill-down's error group — and gives up the sort and the
// tracked count first.
func TestQueryLineKeepsWhatTheUserChose(t *testing.T) {
	m := loaded(t, 80, 24)
	m.setTop(func(t *view.Top) { t.Filter.Set("naive-0000") })
	m = send(t, m, press("1"))
	m, _ = act(t, m, view.ShowGroupIntent{Controller: "naive", Errors: "~^spec", Fingerprint: "spec.storageClass must be set", States: []api.State{api.StateBackoff, api.StateFailed}})
	line := ansi.Strip(widget.Fit(m.tbl().Header().QueryLine(), 80))
	for _, want := range []string{"matched", "states backoff,failed", "filter naive-0000", "error spec"} {
		if !strings.Contains(line, want) {
			t.Errorf("query line %q does not show %q", line, want)
		}
	}
}
