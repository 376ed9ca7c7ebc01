package ui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The filter of a fingerprint selects the messages that share it, and no other.
func TestFingerprintFilter(t *testing.T) {
	fp := "dial tcp …: connect: connection refused" // as v1/errors folds it
	q := fingerprintFilter(fp)
	re := regexp.MustCompile(strings.TrimPrefix(q, "~"))
	for msg, want := range map[string]bool{
		"dial tcp 10.0.0.9:8443: connect: connection refused": true,
		"dial tcp 10.0.0.9:8443: i/o timeout":                 false,
		"demo/widget-1":                                       false,
	} {
		if got := re.MatchString(msg); got != want {
			t.Errorf("filter %q on %q: %v, want %v", q, msg, got, want)
		}
	}
	long := strings.Repeat("x… ", 600) + "the end of a very long message"
	if q := fingerprintFilter(long); len(q) > maxFilterLen || strings.HasPrefix(q, "~") {
		t.Errorf("a too-long fingerprint gives filter of %d bytes starting %q; want a substring within %d", len(q), q[:10], maxFilterLen)
	}
}

// esc after a drill-down restores the view as it was before it: the
// filter, the controller, the state toggles and the key under the cursor;
// a second esc then clears the user's own filter, as esc always does.
func TestDrillDownEscRestoresTheView(t *testing.T) {
	m := loaded(t, 120, 30)
	m.top.filter.set("outage")
	m = send(t, m, press("3"), press("j"))
	sel := m.top.sel
	m, _ = act(t, m, showGroupIntent{controller: "naive", q: "~^spec$", states: []api.State{api.StateBackoff, api.StateFailed}})
	m, _ = act(t, m, showGroupIntent{controller: "naive", q: "~^other$", states: []api.State{api.StateFailed}})
	if m.top.controller != "naive" || m.top.filter.applied != "~^other$" {
		t.Fatalf("drill-down: controller %q filter %q", m.top.controller, m.top.filter.applied)
	}
	m = send(t, m, press("esc"))
	if e, a := "outage", m.top.filter.applied; e != a {
		t.Errorf("filter after esc: want %q, got %q", e, a)
	}
	if m.top.controller != "" {
		t.Errorf("controller after esc: %q, want all", m.top.controller)
	}
	if e, a := []api.State{api.StateQueued}, m.top.stateList(); !slices.Equal(e, a) {
		t.Errorf("states after esc: want %v, got %v", e, a)
	}
	if m.top.sel != sel {
		t.Errorf("cursor after esc follows %q, want %q as before the drill-down", m.top.sel, sel)
	}
	if want := `esc: back to the view before the error group, keys matching "outage" in state queued of every controller`; m.status != want {
		t.Errorf("status %q, want %q", m.status, want)
	}
	if m = send(t, m, press("esc")); m.top.filter.applied != "" || m.top.stateList() == nil {
		t.Errorf("a second esc: filter %q, states %v; want the filter cleared, the states kept", m.top.filter.applied, m.top.stateList())
	}
}

// act runs an intent through the root, as a view returning it would.
func act(t *testing.T, m Model, in intent) (Model, tea.Cmd) {
	t.Helper()
	next, cmd := m.act(in, nil)
	return next.(Model), cmd
}
