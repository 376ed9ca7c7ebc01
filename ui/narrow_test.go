package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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
