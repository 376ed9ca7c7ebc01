package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// A hint shows only while its mode is on the stack (issue #20): the
// drill-down's "esc goes back to the view before it" is not drawn in the
// detail view opened from it (esc there goes back to the table), is drawn
// again back in the drill-down, and esc out of it reports what it did
// rather than offering esc again.
func TestHintOnlyWhileItsMode(t *testing.T) {
	const hint = "esc goes back to the view before it"
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		m := loaded(t, sz[0], sz[1])
		m, _ = act(t, m, view.ShowGroupIntent{Controller: "naive", Errors: "~^spec$", Fingerprint: "spec", States: []api.State{api.StateBackoff}})
		if !strings.Contains(flat(screen(m)), hint) {
			t.Fatalf("%dx%d: the drill-down does not say %q:\n%s", sz[0], sz[1], hint, screen(m))
		}
		d := send(t, m, press("enter"))
		if d.view() != modeDetail {
			t.Fatalf("%dx%d: enter did not open the detail view", sz[0], sz[1])
		}
		if s := flat(screen(d)); strings.Contains(s, hint) {
			t.Errorf("%dx%d: the detail view shows the drill-down's hint:\n%s", sz[0], sz[1], screen(d))
		}
		back := send(t, d, press("esc"))
		if s := flat(screen(back)); back.tbl().Drill == nil || !strings.Contains(s, hint) {
			t.Errorf("%dx%d: back in the drill-down, its hint is not shown:\n%s", sz[0], sz[1], screen(back))
		}
		out := send(t, back, press("esc"))
		if s := flat(screen(out)); out.tbl().Drill != nil || strings.Contains(s, hint) || strings.Contains(s, "esc: back") {
			t.Errorf("%dx%d: out of the drill-down, the screen still offers esc:\n%s", sz[0], sz[1], screen(out))
		}
		// Paused: its hint goes with the pause.
		p := send(t, out, press("p"))
		if !strings.Contains(flat(screen(p)), "p resumes") {
			t.Errorf("%dx%d: paused without its hint", sz[0], sz[1])
		}
		p.c.Paused = false // resumed by other means than p: the hint goes too
		if strings.Contains(flat(screen(p)), "p resumes") {
			t.Errorf("%dx%d: not paused, yet the footer says \"p resumes\"", sz[0], sz[1])
		}
	}
}

// The forget dialog's reason takes the arrows, home and end as an input
// does (issue #20: up and down ended the typing, the cursor never moved):
// only enter and esc end it.
func TestReasonInputTakesCursorKeys(t *testing.T) {
	m := send(t, loaded(t, 80, 24), press("down"), press("f"), press("w"))
	for _, k := range []string{"a", "b", "c", "left", "left", "X", "up", "down", "home", "Y", "end", "Z"} {
		m = send(t, m, press(k))
		if m.dialog() == nil || !m.dialog().Typing {
			t.Fatalf("%q ended the reason's typing", k)
		}
	}
	if e, a := "YaXbcZ", m.dialog().Reason.Value(); e != a {
		t.Errorf("reason = %q, want %q (the cursor moved by left, home, end)", a, e)
	}
	m = send(t, m, press("enter"))
	if m.dialog() == nil || m.dialog().Typing {
		t.Fatal("enter did not end the typing, or closed the dialog")
	}
	if m = send(t, m, press("y")); m.dialog() != nil {
		t.Fatal("y did not confirm")
	}
}

// flat is a screen's words, one space apart, so that a wrapped line reads whole.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// A walk that pushes and pops every mode (issue #20): at each step the
// stack is what the keys opened, the hints line is the mode on top's, the
// dialog's keys are in its box and on the hints line, a status hint shows only while its mode is
// on the stack and not covered by a view, and no hint of a mode popped (or
// covered) is drawn. Each step lists what must show and what must not.
func TestModeStackHints(t *testing.T) {
	// The hints each mode draws, distinct from every other mode's.
	const (
		topHints    = "enter explain key"
		filterHints = "enter apply filter · esc cancel"
		helpHints   = "? or esc to go back · q quit"
		detailHints = "esc back · f forget key"
		groupHints  = "enter show its keys · esc back · f forget group"
		dialogKeys  = "y yes N no (default) w reason (optional)"
		reasonKeys  = "enter done esc no reason"
		dialogLine  = "y yes · N no (default) · w reason (optional)"
		reasonLine  = "enter done · esc no reason"
		drillHint   = "showing the keys of one error group: esc goes back to the error groups"
		pausedHint  = "p resumes"
		viewEnd     = "? help · q quit"
	)
	viewHints := []string{topHints, filterHints, helpHints, detailHints, groupHints}
	all := append([]string{dialogKeys, reasonKeys, drillHint, pausedHint}, viewHints...)
	type step struct {
		do    []tea.Msg
		stack []mode
		show  []string // every other string of all must not show
		// footer is what the last line (the hints line) must hold.
		footer string
	}
	steps := []step{
		{nil, []mode{modeTop}, []string{topHints}, topHints},
		{[]tea.Msg{press("/")}, []mode{modeTop, modeFilter}, []string{filterHints}, filterHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop}, []string{topHints}, topHints},
		{[]tea.Msg{press("?")}, []mode{modeTop, modeHelp}, []string{helpHints}, helpHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop}, []string{topHints}, topHints},
		{[]tea.Msg{press("enter")}, []mode{modeTop, modeDetail}, []string{detailHints}, detailHints},
		{[]tea.Msg{press("?")}, []mode{modeTop, modeDetail, modeHelp}, []string{helpHints}, helpHints},
		{[]tea.Msg{press("?")}, []mode{modeTop, modeDetail}, []string{detailHints}, detailHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop}, []string{topHints}, topHints},
		{[]tea.Msg{press("g"), groupsRead{}}, []mode{modeTop, modeGroups}, []string{groupHints}, groupHints},
		{[]tea.Msg{press("?")}, []mode{modeTop, modeGroups, modeHelp}, []string{helpHints}, helpHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop, modeGroups}, []string{groupHints}, groupHints},
		// enter on a group: the groups pop, the drill-down is pushed.
		{[]tea.Msg{press("enter")}, []mode{modeTop, modeDrill}, []string{topHints, drillHint}, topHints},
		{[]tea.Msg{press("/")}, []mode{modeTop, modeDrill, modeFilter}, []string{filterHints, drillHint}, filterHints},
		{[]tea.Msg{press("enter")}, []mode{modeTop, modeDrill}, []string{topHints, drillHint}, topHints},
		// The detail view covers the drill-down: its esc is not there.
		{[]tea.Msg{press("enter")}, []mode{modeTop, modeDrill, modeDetail}, []string{detailHints}, detailHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop, modeDrill}, []string{topHints, drillHint}, topHints},
		// g and enter again from the drill-down keep the one drill-down.
		{[]tea.Msg{press("g"), groupsRead{}}, []mode{modeTop, modeDrill, modeGroups}, []string{groupHints}, groupHints},
		{[]tea.Msg{press("enter")}, []mode{modeTop, modeDrill}, []string{topHints, drillHint}, topHints},
		// The dialog over the drill-down: its keys in its box and on the
		// hints line; the view's keys do nothing until it is answered, so
		// their line would be a stale hint.
		{[]tea.Msg{press("f")}, []mode{modeTop, modeDrill, modeConfirm}, []string{drillHint, dialogKeys}, dialogLine},
		{[]tea.Msg{press("w")}, []mode{modeTop, modeDrill, modeConfirm}, []string{drillHint, reasonKeys}, reasonLine},
		{[]tea.Msg{press("esc")}, []mode{modeTop, modeDrill, modeConfirm}, []string{drillHint, dialogKeys}, dialogLine},
		{[]tea.Msg{press("n")}, []mode{modeTop, modeDrill}, []string{topHints}, topHints}, // "cancelled" replaced the hint
		// esc goes back to where the drill-down was opened from: the groups.
		{[]tea.Msg{press("esc")}, []mode{modeTop, modeGroups}, []string{groupHints}, groupHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop}, []string{topHints}, topHints},
		{[]tea.Msg{press("p")}, []mode{modeTop}, []string{topHints, pausedHint}, topHints},
		{[]tea.Msg{press("enter")}, []mode{modeTop, modeDetail}, []string{detailHints, pausedHint}, detailHints},
		{[]tea.Msg{press("p")}, []mode{modeTop, modeDetail}, []string{detailHints}, detailHints},
		{[]tea.Msg{press("esc")}, []mode{modeTop}, []string{topHints}, topHints},
	}
	for _, sz := range [][2]int{{80, 24}, {120, 30}} {
		m := loaded(t, sz[0], sz[1])
		for i, st := range steps {
			for _, msg := range st.do {
				if _, ok := msg.(groupsRead); ok {
					g := fixedGroups()
					g.Seq = m.grp().Seq // the read the view asked for last
					msg = g
				}
				m = send(t, m, msg)
			}
			where := fmt.Sprintf("%dx%d step %d (%v)", sz[0], sz[1], i, st.stack)
			if !slices.Equal(m.modes(), st.stack) {
				t.Fatalf("%s: stack %v", where, m.modes())
			}
			lines := splitLines(screen(m))
			if footer := lines[len(lines)-1]; !strings.Contains(footer, st.footer) {
				t.Errorf("%s: hints line %q, want %q", where, footer, st.footer)
			}
			if footer := lines[len(lines)-1]; strings.Contains(footer, viewEnd) != (m.topMode() != modeFilter && m.topMode() != modeHelp && m.topMode() != modeConfirm) {
				t.Errorf("%s: hints line %q: %q only where ? and q do that", where, footer, viewEnd)
			}
			// A view's hints are looked for in the hints line (? lists
			// them in its body); the dialog's and the status's anywhere.
			footer, s := lines[len(lines)-1], flat(screen(m))
			for _, h := range all {
				in := s
				if slices.Contains(viewHints, h) {
					in = footer
				}
				if want := slices.Contains(st.show, h); strings.Contains(in, h) != want {
					t.Errorf("%s: %q shown = %v, want %v:\n%s", where, h, !want, want, screen(m))
				}
			}
		}
	}
}

// groupsRead stands for the group view's read answering, in a walk.
type groupsRead struct{}

// The pod picker's and `top --for`'s modes push and pop the same way, and
// the ? view opened over `top --for` explains its keys, not the table's.
func TestModeStackPickerAndFor(t *testing.T) {
	m := picking(t, 80, 24, &fakeAttach{})
	for _, st := range []struct {
		key   string
		stack []mode
		hints string
	}{{"", []mode{modePicker}, "enter attach"}, {"/", []mode{modePicker, modeFilter}, "enter apply filter · esc cancel"}, {"esc", []mode{modePicker}, "enter attach"}} {
		if st.key != "" {
			m = send(t, m, press(st.key))
		}
		lines := splitLines(screen(m))
		if !slices.Equal(m.modes(), st.stack) || !strings.Contains(lines[len(lines)-1], st.hints) {
			t.Errorf("picker after %q: stack %v, hints %q; want %v, %q", st.key, m.modes(), lines[len(lines)-1], st.stack, st.hints)
		}
	}

	f := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: newForCluster().list}})
	f = send(t, f, tea.WindowSizeMsg{Width: 80, Height: 24})
	f = runFor(t, f, f.refreshFor())
	f = send(t, f, press("enter"), press("?"))
	if !slices.Equal(f.modes(), []mode{modeFor, modeHelp}) {
		t.Fatalf("stack %v, want the answer's help", f.modes())
	}
	help := flat(screen(f))
	if !strings.Contains(help, "esc back to the list") || strings.Contains(help, "filter (~regex)") {
		t.Errorf("help over `top --for` does not explain its keys:\n%s", screen(f))
	}
	if f = send(t, f, press("esc")); !slices.Equal(f.modes(), []mode{modeFor}) || f.forV().Open == "" {
		t.Errorf("esc out of help: stack %v, answer open %v; want the answer again", f.modes(), f.forV().Open != "")
	}
}

// The reason input takes the cursor's blink while it is typed, and only
// then: the blink is what keeps its cursor drawn where the arrows move it.
func TestReasonInputTakesTheBlink(t *testing.T) {
	m := send(t, loaded(t, 80, 24), press("down"), press("f"))
	if _, cmd := update(t, m, cursor.Blink()); cmd != nil {
		t.Error("the dialog took a blink before its reason was typed")
	}
	m, focus := update(t, m, press("w"))
	if focus == nil {
		t.Fatal("w did not start the reason's cursor")
	}
	if _, cmd := update(t, m, cursor.Blink()); cmd == nil {
		t.Error("the reason input did not take the cursor's blink while typed")
	}
	m = send(t, m, press("enter"))
	if _, cmd := update(t, m, cursor.Blink()); cmd != nil {
		t.Error("the reason input took a blink after its typing ended")
	}
}
