package view

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TestKeyCellsAsGetShowsThem: top's KEY cells are text.CellIn's, the rule
// get's table cuts names by: a key read off a log with a tab or a newline
// in it (a zap JSON name "new\nline-key") is escaped, so it stays on its
// row (it split the row in two, and a tab pushed FAILS off its column), a
// wide rune counts two cells, and a key cut keeps its end, as get's does.
func TestKeyCellsAsGetShowsThem(t *testing.T) {
	now := time.Date(2026, 12, 7, 8, 0, 30, 0, time.UTC)
	keys := []string{"demo/tab\there", "demo/new\nline-key", "demo/wide-日本語-key", "team-b/" + strings.Repeat("long-", 12) + "00012"}
	page := &inspector.KeyList{ServerTime: now}
	for _, k := range keys {
		page.Items = append(page.Items, inspector.PodKey{Key: api.Key{Controller: "widget", Key: k, State: api.StateBackoff, Failures: 3,
			NextRetryAt: now.Add(6 * time.Second), LastError: &api.ErrorRecord{Message: "sync with inventory: 503 Service Unavailable", At: now}}})
	}
	for _, w := range []int{60, 80, 120} {
		c := &Common{Width: w, Height: 30, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
			Opts: Options{Clock: func() time.Time { return now }, Refresh: time.Second}}
		m := &TopModel{C: c, Page: page, Controller: "widget"}
		tb := TopTable{C: c, M: m, Cursor: 0, Shown: len(keys), Selected: &page.Items[0]}
		lines := tb.Lines()
		if len(lines) != len(keys)+1 {
			t.Fatalf("%d columns: %d lines for %d keys and a title:\n%s", w, len(lines), len(keys), strings.Join(lines, "\n"))
		}
		title := ansi.Strip(lines[0])
		keyW := strings.Index(title, "FAILS") - strings.Index(title, "KEY") - 1
		for i, k := range keys {
			row := ansi.Strip(lines[i+1])
			if strings.ContainsAny(row, "\t\n") || ansi.StringWidth(row) != w {
				t.Errorf("%d columns: row %q is not one line of %d cells", w, row, w)
			}
			if want := text.CellIn(k, keyW, text.Cells); !strings.Contains(row, want) {
				t.Errorf("%d columns: row %q lacks the key as get's rule cuts it, %q", w, row, want)
			}
		}
		if sel := ansi.Strip(tb.SelectedLine()); !strings.Contains(sel, `demo/tab\there`) {
			t.Errorf("%d columns: the selected line %q does not escape the key's tab", w, sel)
		}
	}
}
