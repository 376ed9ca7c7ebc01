package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// At every size from the smallest laid out, the footer ends with
// "? help · q quit", the forecast is labelled, and no controller's limiter
// is cut.
func TestLayoutKeepsWhatMatters(t *testing.T) {
	for _, sz := range [][2]int{{60, 12}, {72, 20}, {80, 24}, {100, 30}, {120, 30}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := loaded(t, sz[0], sz[1])
			m.status = "" // the first refresh's legend
			for name, v := range map[string]Model{"top": m, "group": send(t, m, press("g"), fixedGroups()), "detail": detailOf(t, m)} {
				lines := splitLines(screen(v))
				if last := strings.TrimRight(lines[len(lines)-1], " "); !strings.HasSuffix(last, "? help · q quit") {
					t.Errorf("%s: footer %q does not end with \"? help · q quit\"", name, last)
				}
			}
			s := screen(m)
			// "due", not "retries": it counts RequeueAfter re-checks too.
			if !strings.Contains(s, "due in 60s, ") || !strings.Contains(s, "s/cell │") || strings.Contains(s, "retries in") {
				t.Errorf("the forecast is not labelled \"due in 60s, Ns/cell\":\n%s", s)
			}
			// The limiters line follows the diagnosis, which may wrap to two.
			var limiters string
			for _, l := range splitLines(s)[3:5] {
				if strings.HasPrefix(l, "limiter") {
					limiters = l
				}
			}
			if limiters == "" {
				t.Fatalf("no limiters line under the diagnosis:\n%s", s)
			}
			if strings.Contains(limiters, "…") {
				t.Errorf("a limiter is cut: %q", limiters)
			}
			for _, brief := range []string{"naive exp 5ms..16m40s", "outage exp 5ms..16m40s+bucket 0/100", "wellbehaved exp 5ms..16m40s"} {
				name := strings.Fields(brief)[0]
				if strings.Contains(limiters, name+" ") && !strings.Contains(limiters, brief) {
					t.Errorf("limiter of %s cut: %q", name, limiters)
				}
			}
		})
	}
}

// The limiters that do not fit cycle: every controller's shows in turn.
func TestLimiterLineCycles(t *testing.T) {
	m := loaded(t, 80, 24)
	seen := map[string]bool{}
	for i := range 4 {
		now := t0.Add(widget.LimiterCycle * time.Duration(i))
		m.c.Opts.Clock = func() time.Time { return now }
		line := m.tbl().Header().LimiterLine()
		for _, name := range []string{"naive", "outage", "wellbehaved"} {
			if strings.Contains(line, name+" exp") {
				seen[name] = true
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("shown over a cycle: %v, want all three controllers", seen)
	}
}

// Below 60×12 a notice replaces the layout; at 80×24 the top view's
// footer shows help and quit.
func TestGoldenSmall(t *testing.T) {
	t.Run("toosmall_50x10", func(t *testing.T) {
		golden.RequireEqual(t, screen(loaded(t, 50, 10)))
	})
	t.Run("status_wraps_80x24", func(t *testing.T) {
		m := loaded(t, 80, 24)
		m.setStatus("demo/outage-00042 left the view; the cursor moved to its neighbour demo/naive-00001, which is what f and r act on now", false)
		golden.RequireEqual(t, screen(m))
	})
}

// detailOf is m's detail view on the dataset's key.
func detailOf(t *testing.T, m Model) Model {
	t.Helper()
	m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	return send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: fixedDetail(), FetchedAt: t0})
}

// Scrolling is clamped in Update: 50 × j goes no further than the last
// screenful, and one k then moves the view.
func TestDetailScrollBound(t *testing.T) {
	m := detailOf(t, loaded(t, 80, 24))
	m.status = ""
	m.fitStatus()
	top := func(m Model) string { return splitLines(screen(m))[3] } // the first body line
	for range 50 {
		m = send(t, m, press("j"))
	}
	bound := len(m.det().Body()) - m.det().Room() + 1
	if m.det().Scroll != bound {
		t.Errorf("after 50×j: scroll %d, want the bound %d", m.det().Scroll, bound)
	}
	atEnd := top(m)
	m = send(t, m, press("k"))
	if m.det().Scroll != bound-1 || top(m) == atEnd {
		t.Errorf("k after the end: scroll %d (want %d), first line %q (was %q): want the view to move", m.det().Scroll, bound-1, top(m), atEnd)
	}
	// A resize re-clamps.
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 60})
	if m.det().Scroll != 0 {
		t.Errorf("everything fits at 200×60, scroll %d, want 0", m.det().Scroll)
	}
}

// With 20,000 keys the counts line still shows every state at 80 columns,
// in compact numbers.
func TestCountsLineFitsBigCounts(t *testing.T) {
	m := loaded(t, 80, 24)
	ov := fixedOverview()
	ov.Controllers[1].Counts = map[api.State]int{"backoff": 12979, "scheduled": 2726, "queued": 14, "running": 1, "failed": 2000, "idle": 2280}
	m.setTop(func(t *view.Top) { t.Overview = ov })
	line := m.tbl().Header().CountsLine()
	if w := lipgloss.Width(line); w > 80 || !strings.Contains(line, "6 idle 2.3k") {
		t.Errorf("counts line %q (%d wide): want every state within 80", line, w)
	}
}

// At every width from the smallest laid out, help shows every binding
// whole, its key and what it does on one line, and every state's meaning.
func TestHelpShowsEveryBinding(t *testing.T) {
	for _, w := range []int{60, 72, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := send(t, loaded(t, w, 20), press("?"))
			lines := m.hlp().Lines()
			text := ansi.Strip(strings.Join(lines, "\n"))
			for _, g := range m.tbl().Keys().FullHelp() {
				for _, b := range g {
					h := b.Help()
					if !b.Enabled() {
						continue
					}
					if !slices.ContainsFunc(splitLines(text), func(l string) bool {
						i := strings.Index(l, h.Key+" ")
						return i >= 0 && strings.Contains(l[i:], h.Desc)
					}) {
						t.Errorf("at %d columns help does not show %q %q:\n%s", w, h.Key, h.Desc, text)
					}
				}
			}
			for _, st := range api.States {
				if last := strings.Fields(view.StateHelp[st]); !strings.Contains(text, last[len(last)-1]) {
					t.Errorf("at %d columns the meaning of %s is cut:\n%s", w, st, text)
				}
			}
			for i, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("line %d is %d wide, over %d: %q", i, lw, w, l)
				}
				if strings.HasSuffix(strings.TrimRight(ansi.Strip(l), " "), "…") {
					t.Errorf("at %d columns line %d is cut: %q", w, i, ansi.Strip(l))
				}
			}
		})
	}
}
