package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
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

// TestTopForAnswerHasWhysSteps: enter on a row of `top --for` shows the
// object's own answer, as `why TYPE/NAME` gives it (ForOptions.Ask), not
// only the list's, which asks nothing of the blockers: the list's answer
// for a Deployment over a Pending pod lacked why's "Check that a scheduler
// runs" (newcomer ui11).
func TestTopForAnswerHasWhysSteps(t *testing.T) {
	const step = "Check that a scheduler runs: the Pod names \"default-scheduler\" (spec.schedulerName)."
	cl := newForCluster()
	var asked []string
	ask := func(ctx context.Context, o objwhy.Object) (*objwhy.Answer, error) {
		asked = append(asked, o.Name)
		l, _ := cl.list(ctx)
		for _, a := range l.Answers {
			if a.Object.Name == o.Name {
				a.Next = append(a.Next, step) // why's answer: the list's and its blocker's step
				return a, nil
			}
		}
		return nil, errors.New("not found")
	}
	m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: cl.list, Ask: ask}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = runFor(t, m, m.refreshFor())
	next, cmd := m.Update(press("enter"))
	m = next.(Model)
	if cmd == nil {
		t.Fatal("enter asked nothing for the object's own answer")
	}
	m = send(t, m, cmd())
	if len(asked) != 1 || asked[0] != "w-old" {
		t.Errorf("asked for %v, want w-old", asked)
	}
	if s := squash(screen(m)); !strings.Contains(s, squash("> "+step)) {
		t.Errorf("the answer lacks why's step %q:\n%s", step, screen(m))
	}
}
