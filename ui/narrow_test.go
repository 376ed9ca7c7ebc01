package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// Under 72 columns, with every controller shown, the table still fits: no
// row runs past the screen, and the keys and their last errors stay on it
// (DELAY gives way: NEXT says when).
func TestNarrowTableFits(t *testing.T) {
	for _, w := range []int{60, 64, 71} {
		m := loaded(t, w, 20)
		s := screen(m)
		lines := splitLines(s)
		header := -1
		for i, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("%d columns: line %d is %d wide: %q", w, i, ansi.StringWidth(l), l)
			}
			if strings.Contains(l, "STATE") && strings.Contains(l, "KEY") {
				header = i
			}
		}
		if header < 0 {
			t.Fatalf("%d columns: no table header:\n%s", w, s)
		}
		if h := lines[header]; !strings.Contains(h, "ERROR") || !strings.Contains(h, "NEXT") {
			t.Errorf("%d columns: header %q lacks the error or next-retry column", w, h)
		}
	}
}

// The error-group view at 80 and 60 columns says its whole summary and
// titles every column: nothing in them is cut off at the screen's edge.
func TestNarrowGroupViewFits(t *testing.T) {
	const summary = "4 distinct errors over 11,853 keys in backoff,failed (every controller); exact counts, from the endpoint"
	for _, sz := range [][2]int{{80, 24}, {60, 20}} {
		m := send(t, loaded(t, sz[0], sz[1]), press("g"), fixedGroups())
		s := screen(m)
		lines := splitLines(s)
		header := -1
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > sz[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", sz[0], sz[1], i, w, l)
			}
			if strings.Contains(l, "KEYS") && strings.Contains(l, "CONTROLLER") {
				header = i
			}
		}
		if header < 0 {
			t.Fatalf("%dx%d: no column header:\n%s", sz[0], sz[1], s)
		}
		if got := strings.TrimRight(lines[header], " "); !strings.HasSuffix(got, "ERROR") && !strings.HasSuffix(got, ")") {
			t.Errorf("%dx%d: the column header %q is cut; want it to end with its ERROR title", sz[0], sz[1], got)
		}
		// The summary, wrapped as it must be, between the title and the header.
		var said []string
		for _, l := range lines[1:header] {
			said = append(said, strings.Fields(l)...)
		}
		if got := strings.Join(said, " "); got != summary {
			t.Errorf("%dx%d: the summary reads %q, want %q", sz[0], sz[1], got, summary)
		}
		// Every group is still listed, with its count and controller.
		for i, want := range []string{"10,980 outage", "842 outage", "30 naive", "1 conflicts"} {
			row := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(lines[header+1+i], "›"), " keys ", " "), " key ", " "))
			if got := strings.Join(row[:min(len(row), 2)], " "); got != want {
				t.Errorf("%dx%d: group %d reads %q, want %q", sz[0], sz[1], i, got, want)
			}
		}
	}
}

// Narrow screens keep the answer (issue #23): the paused mark stays once
// the header says how long ago it updated; no key is cut at its namespace
// ("dem…ve-00001"), and at 60 columns the selected key shows whole with
// its error under the table.
func TestNarrowKeepsTheAnswer(t *testing.T) {
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		m := send(t, loaded(t, sz[0], sz[1]), press("p"))
		m.c.Opts.Clock = func() time.Time { return t0.Add(4 * time.Second) }
		lines := splitLines(screen(m))
		if !strings.Contains(lines[0], "⏸ PAUSED") {
			t.Errorf("%dx%d: paused, the first line %q lost its mark", sz[0], sz[1], lines[0])
		}
		for _, l := range lines {
			if strings.Contains(l, "dem…") {
				t.Errorf("%dx%d: a key is cut at its namespace: %q", sz[0], sz[1], l)
			}
		}
		if sz[0] >= view.NarrowWidth {
			continue
		}
		want := "› demo/outage-00017 · sync inven"
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) && strings.HasSuffix(l, "connection refused") }) {
			t.Errorf("%dx%d: no line shows the selected key whole with its error (%q…):\n%s", sz[0], sz[1], want, strings.Join(lines, "\n"))
		}
	}
}

// At 60 columns the counts line names every state that has keys, whole:
// a count is never cut in its middle ("6 …"), the toggle keys' numbers
// giving way first (the help lists them).
func TestNarrowCountsLineWhole(t *testing.T) {
	counts := map[string]int{}
	for _, c := range fixedOverview().Controllers {
		for st, n := range c.Counts {
			counts[string(st)] += n
		}
	}
	for _, w := range []int{60, 80, 120} {
		m := loaded(t, w, 24)
		line := ansi.Strip(m.tbl().Header().CountsLine())
		if lw := ansi.StringWidth(line); lw > w {
			t.Errorf("%d columns: the counts line is %d wide: %q", w, lw, line)
		}
		for st, n := range counts {
			name := cmp.Or(view.ShortStates[api.State(st)], st)
			if !strings.Contains(line, fmt.Sprintf("%s %d", name, n)) && !strings.Contains(line, fmt.Sprintf("%s %d", st, n)) {
				t.Errorf("%d columns: the counts line %q does not say %s %d", w, line, st, n)
			}
		}
	}
}
