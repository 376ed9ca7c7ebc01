package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDiagnosisFitsWhatFits: from 137 to 151 columns the header cut the
// quoted error ("PUT https:…inventory.demo.svc", two cells of it, seen at
// 160 on the demo) where two lines hold the sentence whole: the word wrap
// moved the URL whole to the second line, leaving the first short of it.
// Before the error gives up its middle, the sentence breaks after a "/" of
// the URL, as a wrap does a word wider than its line, and a shorter label
// gives way: at every width from 100 to 200 columns, an error cut in its
// middle is one the shortest label cannot hold whole, broken at a space or
// after a "/".
func TestDiagnosisFitsWhatFits(t *testing.T) {
	cuts := 0
	for w := 100; w <= 200; w++ {
		diag := outageHeader(t, w)
		i, j := strings.Index(diag, "(sync with"), strings.Index(diag, "Unavailable)")
		if i < 0 || j < i {
			t.Fatalf("%d columns: the diagnosis %q does not quote the error", w, diag)
		}
		if !strings.Contains(diag[i:j], "…") {
			continue
		}
		cuts++
		_, body, ok := strings.Cut(diag[:i], ": outage — ")
		if !ok {
			t.Fatalf("%d columns: no label before the controller in %q", w, diag)
		}
		whole := "worst of 3: outage — " + body + "(" + outageError + diag[j+len("Unavailable"):]
		if first, ok := twoLinesHold(whole, w); ok {
			t.Errorf("%d columns: the error is cut:\n%s\nwhere two lines hold it whole, the first:\n%s", w, diag, first)
		}
	}
	if cuts == 0 {
		t.Fatal("no width from 100 to 200 cut the error: the test reads nothing")
	}
}

// twoLinesHold reports whether two lines of w cells hold s broken at a
// space or after a "/", and the first line if they do.
func twoLinesHold(s string, w int) (string, bool) {
	for i := len(s) - 1; i > 0; i-- {
		first, rest := s[:i], s[i:]
		switch {
		case s[i] == ' ':
			rest = s[i+1:]
		case s[i-1] != '/':
			continue
		}
		if ansi.StringWidth(first) <= w && ansi.StringWidth(rest) <= w {
			return first, true
		}
	}
	return "", false
}
