package cli

import (
	"strings"
	"testing"
)

// TestExplainLinesOnScreen: top refuses --explain-lines while stderr is
// the terminal it draws on (the lines were written over its table), and
// names the redirect that keeps them; stderr elsewhere, or no flag, passes.
func TestExplainLinesOnScreen(t *testing.T) {
	if err := explainLinesOnScreen(true, true); err == nil || !strings.Contains(err.Error(), "2>lines.txt") {
		t.Errorf("--explain-lines with stderr on the screen: %v, want it refused naming 2>lines.txt", err)
	}
	for _, tt := range [][2]bool{{true, false}, {false, true}, {false, false}} {
		if err := explainLinesOnScreen(tt[0], tt[1]); err != nil {
			t.Errorf("explainLinesOnScreen(%v, %v) = %v, want nil", tt[0], tt[1], err)
		}
	}
}
