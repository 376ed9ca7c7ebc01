package view

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// overviewOf is an overview of one controller with n keys in backoff.
func overviewOf(n int) *inspector.Overview {
	return &inspector.Overview{Controllers: []api.Controller{{Name: "widgets", Counts: map[api.State]int{api.StateBackoff: n}}}}
}

// The error groups behind the diagnosis are read again at once when keys
// start or stop failing, but not while a read of them is under way: an
// overview newer than the groups' read (a later page's answer, arriving
// first) is not a change, and asking again would cost the endpoint a pass
// over every key for nothing.
func TestGroupsReadOncePerChange(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := &Common{Opts: Options{Clock: func() time.Time { return now }}}
	m := &TopModel{C: c, Controller: "widgets"}
	asks := func(what string, want bool) {
		t.Helper()
		m.read(inspector.KeyQuery{Controller: m.Controller})
		if got := m.groupsSeq == m.Seq; got != want {
			t.Errorf("%s: read %d asks for the groups = %v, want %v", what, m.Seq, got, want)
		}
	}
	answer := func(seq int, groups bool, ov *inspector.Overview) {
		msg := RefreshedMsg{Seq: seq, GroupsAsked: groups, GroupsFor: "widgets", Overview: ov, FetchedAt: now}
		if groups {
			msg.Groups = &api.ErrorGroupList{}
		}
		if m.accept(msg) {
			m.Overview = msg.Overview
		}
	}
	asks("the first read", true)                    // 1
	asks("a read before its answer", false)         // 2
	answer(2, false, overviewOf(3))                 // the page's answer first: keys failing
	asks("a read before the groups' answer", false) // 3: the groups under way will tell
	answer(1, true, overviewOf(3))
	answer(3, false, overviewOf(3))
	asks("a read with nothing changed", false) // 4
	answer(4, false, overviewOf(0))            // the keys stopped failing
	asks("the read after a change", true)      // 5
}
