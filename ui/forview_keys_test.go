package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestTopForMovesAsTopDoes: in `top --for`, G and end move the selection
// to the last object and home back to the first, as in top's table, and
// the selected row is marked "›" as top marks it: G did nothing, and only
// colour told the selected row (newcomer ui11).
func TestTopForMovesAsTopDoes(t *testing.T) {
	cl := newForCluster()
	m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: cl.list}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 24})
	m = runFor(t, m, m.refreshFor())
	selected := func() string {
		t.Helper()
		var rows []string
		for _, l := range splitLines(screen(m)) {
			if strings.HasPrefix(l, "› ") {
				rows = append(rows, l)
			}
		}
		if len(rows) != 1 {
			t.Fatalf("want one row marked \"› \", got %d:\n%s", len(rows), screen(m))
		}
		return rows[0]
	}
	if !strings.Contains(selected(), "w-old ") {
		t.Fatalf("the first row is not selected: %q", selected())
	}
	for _, k := range []struct{ key, want string }{{"G", "w-new "}, {"home", "w-old "}, {"end", "w-new "}, {"k", "w-old "}} {
		m = send(t, m, press(k.key))
		if got := selected(); !strings.Contains(got, k.want) {
			t.Errorf("after %s the selected row is %q, want %s", k.key, got, k.want)
		}
	}
}
