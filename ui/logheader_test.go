package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// longLogPath is a log's path as a newcomer gave it to `top --from-logs`:
// a file of the training corpus under its directory. At 80 columns the
// header showed it as "logs:…ys-same-seco…", cut in its middle, then again
// at the screen's edge.
const longLogPath = "/work/main/internal/inspector/logs/testdata/batch10/234-harvester-logrus-wrangler-two-keys-same-second.log"

// TestLogHeaderFits: the header's first line of top over a log with a long
// path fits the screen with the name cut once: its directory goes first,
// then the middle of its file name; its end (".log") is on the line,
// before the edge's "…". At 60 columns the log's end says how long ago,
// not its time, to leave the name its room.
func TestLogHeaderFits(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int
		ends string
	}{{"80x24", 80, 24, "log ends 10:00:30 (5m55s ago)"}, {"60x20", 60, 20, "log ended 5m55s ago"}} {
		t.Run(sz.name, func(t *testing.T) {
			m := newModel(context.Background(), view.Options{Session: inspector.InProcessSession(nil,
				inspector.NamedHandler{Name: inspector.LogSourcePrefix + longLogPath, Handler: logWorld(t).Handler()}), Clock: fixedClock})
			m = opened(t, send(t, m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h}))
			scr := screen(m)
			head := strings.TrimRight(splitLines(scr)[0], " ")
			if w := ansi.StringWidth(head); w > sz.w {
				t.Errorf("the header is %d cells wide, on %d: %q", w, sz.w, head)
			}
			if !strings.Contains(head, " · "+sz.ends+" · ") {
				t.Errorf("the header %q does not say %q", head, sz.ends)
			}
			_, name, ok := strings.Cut(head, "logs: ")
			name, _, _ = strings.Cut(name, " ")
			if !ok || !strings.HasSuffix(name, "second.log") || strings.Count(name, "…") != 1 || !strings.HasPrefix(name, "234") {
				t.Errorf("the log's name is %q in %q: want its file name, cut once in its middle", name, head)
			}
			golden.RequireEqual(t, scr)
		})
	}
}
