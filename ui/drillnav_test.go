package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// hintsLine is the last line of the screen: the hints of the mode on top.
func hintsLine(m Model) string {
	lines := splitLines(screen(m))
	return lines[len(lines)-1]
}

// drilled is the top view at 120x30 drilled into the first error group
// (outage's 503s) from the group view, as a user gets there: g, enter.
func drilled(t *testing.T) Model {
	t.Helper()
	m := send(t, loaded(t, 120, 30), press("g"), fixedGroups(), press("enter"))
	if m.tbl().Drill == nil || m.tbl().Controller != "outage" {
		t.Fatalf("g enter: no drill-down into outage's group (controller %q)", m.tbl().Controller)
	}
	return m
}

// esc in a drill-down goes back to where the user came from: the group
// view it was opened from, over the top view as it was before the group;
// the hint and the hints line say exactly that.
func TestDrillDownEscGoesBackToGroups(t *testing.T) {
	m := drilled(t)
	if s := flat(screen(m)); !strings.Contains(s, "esc goes back to the error groups") {
		t.Errorf("the drill-down's hint does not say esc goes back to the groups:\n%s", screen(m))
	}
	if h := hintsLine(m); !strings.Contains(h, "esc back to error groups") {
		t.Errorf("hints line %q: want esc back to error groups", h)
	}
	m = send(t, m, press("esc"))
	if m.view() != modeGroups || m.tbl().Drill != nil {
		t.Fatalf("esc from the drill-down: stack %v, drill %v; want the group view back", m.modes(), m.tbl().Drill)
	}
	if m.tbl().Controller != "" || m.tbl().Group.Pattern != "" {
		t.Errorf("under the groups the top view is still the group's: controller %q, error %q", m.tbl().Controller, m.tbl().Group.Pattern)
	}
	if s := flat(screen(m)); !strings.Contains(s, "left the error group: back to the error groups") {
		t.Errorf("esc does not say where it went:\n%s", screen(m))
	}
	m = send(t, m, press("esc"))
	if m.view() != modeTop || len(m.modes()) != 1 {
		t.Errorf("esc from the groups: stack %v, want the top view", m.modes())
	}
}

// tab in a drill-down: an error group is one controller's, so switching
// controller leaves it (no "no keys match" under a group the next
// controller cannot have), and the status says so.
func TestDrillDownTabLeavesTheGroup(t *testing.T) {
	m := drilled(t)
	if s := screen(send(t, m, press("?"))); !regexp.MustCompile(`tab +switch controller \(leaves the group\)`).MatchString(s) {
		t.Errorf("help in the drill-down: tab does not say it leaves the group:\n%s", s)
	}
	m = send(t, m, press("tab"))
	if m.tbl().Drill != nil || m.tbl().Group.Pattern != "" || len(m.modes()) != 1 {
		t.Fatalf("tab kept the drill-down: stack %v, error %q", m.modes(), m.tbl().Group.Pattern)
	}
	var names []string
	for _, c := range m.tbl().Overview.Controllers {
		names = append(names, c.Name)
	}
	want := ""
	for i, n := range names {
		if n == "outage" && i+1 < len(names) {
			want = names[i+1]
		}
	}
	if m.tbl().Controller != want {
		t.Errorf("tab from outage's group shows controller %q, want %q (the one after outage in %v)", m.tbl().Controller, want, names)
	}
	if s := flat(screen(m)); !strings.Contains(s, "left the error group, which is outage's only: showing "+view.ScopeName(want)) {
		t.Errorf("tab does not say it left the group:\n%s", screen(m))
	}
	// esc no longer goes to a group: nothing to clear, so it is not offered.
	if h := hintsLine(m); strings.Contains(h, "esc") {
		t.Errorf("hints line %q offers esc with nothing to leave or clear", h)
	}
}

// esc is on the hints line while it does something: clearing a filter
// applied; not before one is applied, nor once it is cleared.
func TestHintsOfferEscOnlyToClearAFilter(t *testing.T) {
	m := loaded(t, 120, 30)
	if h := hintsLine(m); strings.Contains(h, "esc") {
		t.Errorf("no filter: hints line %q offers esc", h)
	}
	m = send(t, m, press("/"))
	m = send(t, m, typeText("outage")...)
	m = send(t, m, press("enter"))
	if h := hintsLine(m); !strings.Contains(h, "esc clear filter") {
		t.Errorf("filter applied: hints line %q does not say esc clears it", h)
	}
	if s := screen(send(t, m, press("?"))); !regexp.MustCompile(`esc +clear filter`).MatchString(s) || strings.Contains(s, "clear filter / back") {
		t.Errorf("help with a filter applied: want esc clear filter alone:\n%s", s)
	}
	m = send(t, m, press("esc"))
	if h := hintsLine(m); m.tbl().Filter.Applied != "" || strings.Contains(h, "esc") {
		t.Errorf("filter cleared (%q): hints line %q still offers esc", m.tbl().Filter.Applied, h)
	}
}
