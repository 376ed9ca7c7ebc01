//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// assertChainView draws the TUI's chain view (what `t` opens from an
// answer of `top --for`) over an answer `why -o json` gave on the real
// cluster, and checks that its tree names blocker, marked, with words of
// its line.
func assertChainView(t *testing.T, a *why.Answer, blocker, said string) {
	t.Helper()
	c := &view.Common{Width: 240, Height: 30, Styles: widget.NewStyles(true), Keys: view.NewKeyMap(),
		Opts: view.Options{Clock: time.Now}, SeenMarks: map[string]bool{}}
	v, cmd := view.NewChain(c, a, a)
	if cmd != nil {
		t.Fatalf("the chain view asked again for an answer whose chain was walked")
	}
	text := ansi.Strip(v.Render())
	t.Logf("chain view:\n%s", text)
	var row string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, blocker) {
			row = l
			break
		}
	}
	if !strings.Contains(row, "← blocker") || !strings.Contains(row, said) {
		t.Errorf("the chain view's row for %s is %q; want it marked the blocker, saying %q", blocker, row, said)
	}
	if !strings.Contains(text, "1 blocker") {
		t.Errorf("the chain view's status line does not count one blocker:\n%s", text)
	}
}
