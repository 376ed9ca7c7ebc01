package ui

import (
	"strings"
	"testing"
)

// TestDiagnosisTwoLinesWhole: the demo's outage diagnosis at 120 columns
// (issue #47: "(sync with inventor…utage-00000: 503 Service Unavailable);
// … next wave of 10 i…") holds its two lines with the sentence whole after
// the quoted error, which alone gives up its middle; at 80 columns, where
// two lines cannot hold it, the second ends with "…" and says where it is
// whole, and help shows it whole.
func TestDiagnosisTwoLinesWhole(t *testing.T) {
	r, srv := demoWorld(t)
	for _, sz := range []struct {
		w, h  int
		whole bool // the sentence after the quoted error fits
	}{{120, 30, true}, {80, 24, false}} {
		m := firstScreen(t, r, srv, sz.w, sz.h)
		d, _, ok := m.tbl().Diagnosis()
		if !ok || d.Quoted == "" {
			t.Fatalf("%d columns: no diagnosis quoting an error: %+v", sz.w, d)
		}
		lines := splitLines(screen(m))
		end := 3
		for !strings.HasPrefix(lines[end], "limiters ") {
			end++
		}
		if end > 4 {
			t.Fatalf("%d columns: the diagnosis takes %d lines, want 2:\n%s", sz.w, end-2, strings.Join(lines[2:end], "\n"))
		}
		words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		diag := words(strings.Join(lines[2:end], " "))
		_, after, _ := strings.Cut(d.Summary, d.Quoted)
		if sz.whole {
			if !strings.Contains(diag, words(after)) || strings.Contains(diag, "? shows it whole") {
				t.Errorf("%d columns: the diagnosis lost the end of its sentence %q:\n%s", sz.w, after, strings.Join(lines[2:end], "\n"))
			}
			continue
		}
		if !strings.HasSuffix(strings.TrimRight(lines[3], " "), "… ? shows it whole") {
			t.Errorf("%d columns: a diagnosis cut at its end does not say where it is whole:\n%s", sz.w, strings.Join(lines[2:end], "\n"))
		}
		if help := words(helpText(send(t, m, press("?")))); !strings.Contains(help, words(d.Line())) {
			t.Errorf("%d columns: help does not show the diagnosis %q whole:\n%s", sz.w, d.Line(), help)
		}
	}
}
