package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The stack holds the views open, each with its model, and a view left is
// gone from it: opened again it starts anew, and the answer to a read of
// the one left does not pass for the answer of the one opened after it
// (their reads are numbered across both).
func TestStackHoldsTheViews(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("g"))
	if _, ok := m.stack[len(m.stack)-1].v.(view.Groups); !ok || !slices.Equal(m.modes(), []mode{modeTop, modeGroups}) {
		t.Fatalf("after g: stack %v, top layer %T; want the groups view pushed with its model", m.modes(), m.stack[len(m.stack)-1].v)
	}
	left := m.grp().Seq
	if m = send(t, m, press("esc")); m.viewAt(modeGroups) != nil {
		t.Fatalf("after esc: the groups view is still held (stack %v)", m.modes())
	}
	m = send(t, m, press("g"))
	m = send(t, m, view.GroupsFetchedMsg{Seq: left, List: fixedGroupList(), FetchedAt: t0})
	if !m.grp().Loading {
		t.Errorf("the answer to the groups view left (read %d) was taken by the one opened after it (read %d)", left, m.grp().Seq)
	}
	m = send(t, m, view.GroupsFetchedMsg{Seq: m.grp().Seq, List: fixedGroupList(), FetchedAt: t0})
	if m.grp().Loading {
		t.Errorf("the groups view opened again did not take its own answer (read %d)", m.grp().Seq)
	}
}

// A drill-down and a filter line typed are state of the view they are in,
// not layers of the stack: the stack holds the table alone while it shows
// a group's keys and its filter line is typed, and the group view drilled
// from comes back as it was (its cursor on the group drilled into).
func TestDrillAndFilterAreTheViewsState(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("g"), fixedGroups(), press("j"))
	cursor := selectedLine(screen(m))
	m = send(t, m, press("enter"), press("/"))
	if len(m.stack) != 1 || !slices.Equal(m.modes(), []mode{modeTop, modeDrill, modeFilter}) {
		t.Fatalf("drilled, typing: %d layers, modes %v; want the table alone, drilling and typing", len(m.stack), m.modes())
	}
	m = send(t, m, press("esc"), press("esc"))
	if len(m.stack) != 2 || m.view() != modeGroups || m.tbl().Drilling() {
		t.Fatalf("esc, esc: %d layers, modes %v; want the group view back over the table", len(m.stack), m.modes())
	}
	m = send(t, m, fixedGroups2(m))
	if got := selectedLine(screen(m)); got == "" || got != cursor {
		t.Errorf("the group view came back with its cursor on %q; was on %q", got, cursor)
	}
}

// selectedLine is the line the cursor (›) is on.
func selectedLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "›") {
			return l
		}
	}
	return ""
}

// fixedGroups2 is fixedGroups answering the group view's read now.
func fixedGroups2(m Model) view.GroupsFetchedMsg {
	g := fixedGroups()
	g.Seq = m.grp().Seq
	return g
}

// The forget dialog is state of the view that asked: f in a key's detail
// opens it on the detail, not on the table under it nor as a layer of its
// own, and its answer closes it there.
func TestDialogIsTheAskingViewsState(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("enter"))
	if m.view() != modeDetail {
		t.Fatalf("enter: view %v, want the detail", m.view())
	}
	m = send(t, m, view.DetailFetchedMsg{Controller: m.det().Controller, Key: m.det().Key, Data: fixedDetail(), FetchedAt: t0}, press("f"))
	if len(m.stack) != 2 || m.det().Dialog() == nil || m.tbl().Dialog() != nil || m.topMode() != modeConfirm {
		t.Fatalf("f in the detail: %d layers, modes %v, detail's dialog %v, table's %v; want the detail's", len(m.stack), m.modes(), m.det().Dialog() != nil, m.tbl().Dialog() != nil)
	}
	if m = send(t, m, press("n")); m.dialog() != nil || m.det().Dialog() != nil || m.topMode() != modeDetail {
		t.Errorf("n: modes %v, dialog %v; want the detail without it", m.modes(), m.dialog() != nil)
	}
}
