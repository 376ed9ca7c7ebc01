package ui

import (
	"slices"
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
