package ui

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
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
		m, _ = act(t, m, showGroupIntent{controller: "naive", errors: "~^spec$", fingerprint: "spec", states: []api.State{api.StateBackoff}})
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
		if s := flat(screen(back)); back.top.drill == nil || !strings.Contains(s, hint) {
			t.Errorf("%dx%d: back in the drill-down, its hint is not shown:\n%s", sz[0], sz[1], screen(back))
		}
		out := send(t, back, press("esc"))
		if s := flat(screen(out)); out.top.drill != nil || strings.Contains(s, hint) || strings.Contains(s, "esc: back") {
			t.Errorf("%dx%d: out of the drill-down, the screen still offers esc:\n%s", sz[0], sz[1], screen(out))
		}
		// Paused: its hint goes with the pause.
		p := send(t, out, press("p"))
		if !strings.Contains(flat(screen(p)), "p resumes") {
			t.Errorf("%dx%d: paused without its hint", sz[0], sz[1])
		}
		p.c.paused = false // resumed by other means than p: the hint goes too
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
		if m.confirm == nil || !m.confirm.typing {
			t.Fatalf("%q ended the reason's typing", k)
		}
	}
	if e, a := "YaXbcZ", m.confirm.reason.Value(); e != a {
		t.Errorf("reason = %q, want %q (the cursor moved by left, home, end)", a, e)
	}
	m = send(t, m, press("enter"))
	if m.confirm == nil || m.confirm.typing {
		t.Fatal("enter did not end the typing, or closed the dialog")
	}
	if m = send(t, m, press("y")); m.confirm != nil {
		t.Fatal("y did not confirm")
	}
}

// flat is a screen's words, one space apart, so that a wrapped line reads whole.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
