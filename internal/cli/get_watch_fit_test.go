package cli_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestGetWatchFitsTheTerminal: get -w on an 80-column terminal printed the
// whole table (the demo's 102 columns), every row wrapped, where get
// without -w fits it. The stream now takes get's fitted columns from its
// first list (SOURCE first out) and keeps them: the list and the rows that
// change later fit the width, aligned.
func TestGetWatchFitsTheTerminal(t *testing.T) {
	t.Cleanup(cli.ScreenWidthForTest(60))
	w := newFollowWorld(t, false)
	out := runGetWatch(t, w)
	waitFor(t, out, "default/w1", func() {})
	w.fail("default/w9")
	waitFor(t, out, "default/w9", w.tick)
	s := out.String()
	for line := range strings.Lines(s) {
		if n := ansi.StringWidth(strings.TrimSuffix(line, "\n")); n > 60 {
			t.Errorf("a line of %d cells on a 60-cell terminal: %q", n, line)
		}
	}
	if strings.Contains(s, "SOURCE") || !strings.Contains(s, "LAST ERROR") {
		t.Errorf("get -w on a terminal:\n%s\nwant SOURCE left out, LAST ERROR kept", s)
	}
	lines := strings.Split(s, "\n")
	at := strings.Index(lines[0], "STATE")
	for _, l := range lines[1:] {
		if strings.Contains(l, "default/w9") && strings.Index(l, " backoff")+1 != at {
			t.Errorf("w9's row %q does not start STATE at the header's column %d:\n%s", l, at, s)
		}
	}
}
