package ui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// againRe reads the promise a state toggle's note makes: "1 again shows
// every state", "2 again hides it", "1 again adds it back".
var againRe = regexp.MustCompile(`(\d) again (hides it|adds it back|shows every state)`)

// What a state toggle says pressing it again does is what pressing it again
// does (issue #23: "showing only backoff keys; 1 again hides it", and 1
// again showed every state).
func TestStateToggleKeepsItsWord(t *testing.T) {
	for _, presses := range [][]string{{"1"}, {"1", "2"}, {"1", "2", "2"}, {"5"}} {
		m := loaded(t, 120, 30)
		for _, p := range presses {
			m = send(t, m, press(p))
		}
		said := againRe.FindStringSubmatch(m.status)
		if said == nil {
			t.Fatalf("after %v the note %q makes no promise", presses, m.status)
		}
		i, _ := strconv.Atoi(said[1])
		st := api.States[i-1]
		before := m.tbl().StateList()
		m = send(t, m, press(said[1]))
		after := m.tbl().StateList()
		var ok bool
		switch said[2] {
		case "hides it":
			ok = len(after) > 0 && !slices.Contains(after, st)
		case "adds it back":
			ok = slices.Contains(after, st)
		case "shows every state":
			ok = len(after) == 0 // none toggled on shows them all
		}
		if !ok {
			t.Errorf("after %v the note said %q; pressing %s turned %v into %v", presses, said[0], said[1], before, after)
		}
	}
}

// The bulk retry's dialog wraps its sentence as one at 60 columns: no line
// left with a lone word (issue #23: "requeued / spread / evenly over 30s").
func TestRetryAllWordsWrapAsOne(t *testing.T) {
	for _, w := range []int{60, 80} {
		m := send(t, loaded(t, w, 24), press("R"))
		if m.dialog() == nil {
			t.Fatalf("%d columns: R opened no dialog", w)
		}
		box := m.dialog().View(&m.c.Styles, w)
		var text []string
		for _, l := range splitLines(ansi.Strip(box)) {
			l = strings.Trim(l, "│╭╮╰╯─ ")
			if f := strings.Fields(l); len(f) == 1 && !strings.HasSuffix(f[0], ".") && !strings.HasSuffix(f[0], "?") {
				t.Errorf("%d columns: a line holds the lone word %q:\n%s", w, f[0], ansi.Strip(box))
			}
			text = append(text, l)
		}
		if s := strings.Join(strings.Fields(strings.Join(text, " ")), " "); !strings.Contains(s, "requeued spread evenly over 30s, so what they call is not hit by a herd.") {
			t.Errorf("%d columns: the dialog reads %q", w, s)
		}
	}
}

// Help says what idle is: a success with nothing pending, not "the
// backoff is forgotten", which a forget does to a key still in backoff.
func TestHelpSaysWhatIdleIs(t *testing.T) {
	help := helpText(send(t, loaded(t, 120, 30), press("?")))
	if strings.Contains(help, "idle converged: the backoff is forgotten") {
		t.Errorf("help still calls idle \"the backoff is forgotten\"")
	}
	if want := "idle the last reconcile succeeded and nothing is pending"; !strings.Contains(help, want) {
		t.Errorf("help does not say %q:\n%s", want, help)
	}
}

// The reason input starts empty: nothing after "Reason: " but the cursor,
// no placeholder letter under it that reads as typed (issue #23: a
// reverse-video "w" of "why (…)"); the hint is its own line.
func TestReasonInputStartsEmpty(t *testing.T) {
	m := send(t, loaded(t, 80, 24), press("down"), press("f"), press("w"))
	if m.dialog() == nil || !m.dialog().Typing {
		t.Fatal("w did not start the reason")
	}
	lines := splitLines(ansi.Strip(m.dialog().View(&m.c.Styles, 80)))
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Reason:") })
	if i < 0 {
		t.Fatalf("no reason input:\n%s", strings.Join(lines, "\n"))
	}
	_, after, _ := strings.Cut(lines[i], "Reason:")
	if typed := strings.Trim(after, " │"); typed != "" {
		t.Errorf("the empty reason input shows %q after \"Reason:\"", typed)
	}
	if !strings.Contains(lines[i+1], widget.ReasonHint) {
		t.Errorf("the line under the input is %q, want the hint %q", lines[i+1], widget.ReasonHint)
	}
}
