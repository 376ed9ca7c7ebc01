package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// recorder wraps the model to keep its last rendered screen, ANSI
// stripped: the terminal output teatest captures is a stream of cell
// updates, so a journey waits on what the screen shows instead.
type recorder struct {
	Model
	screen *atomic.Pointer[string]
}

func (r recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := r.Model.Update(msg)
	return recorder{Model: m.(Model), screen: r.screen}, cmd
}

func (r recorder) View() tea.View {
	v := r.Model.View()
	s := ansi.Strip(v.Content)
	r.screen.Store(&s)
	return v
}

// journey runs the UI against f at 120×30 with a fast refresh.
type journey struct {
	t      *testing.T
	tm     *teatest.TestModel
	screen *atomic.Pointer[string]
}

func startJourney(t *testing.T, f *fixture) *journey {
	t.Helper()
	return startJourneyWith(t, view.Options{Session: f.session(t), Refresh: 100 * time.Millisecond, Namespace: "demo"})
}

// startJourneyWith runs the UI with opts at 120×30.
func startJourneyWith(t *testing.T, opts view.Options) *journey {
	t.Helper()
	screen := &atomic.Pointer[string]{}
	m := newModel(context.Background(), opts)
	tm := teatest.NewTestModel(t, recorder{Model: m, screen: screen}, teatest.WithInitialTermSize(120, 30))
	j := &journey{t: t, tm: tm, screen: screen}
	t.Cleanup(func() {
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		m.c.Conn.Owned.CloseAll() // as Run does
	})
	return j
}

// waitFor waits until the screen shows every one of want (or one of its
// lines passes the line check, when given).
func (j *journey) waitFor(want ...string) {
	j.t.Helper()
	teatest.WaitFor(j.t, j.tm.Output(), func([]byte) bool {
		s := j.screen.Load()
		if s == nil {
			return false
		}
		for _, w := range want {
			if !strings.Contains(*s, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// waitLine waits until one line of the screen contains every one of want.
func (j *journey) waitLine(want ...string) {
	j.t.Helper()
	teatest.WaitFor(j.t, j.tm.Output(), func([]byte) bool {
		s := j.screen.Load()
		if s == nil {
			return false
		}
	lines:
		for _, l := range strings.Split(*s, "\n") {
			for _, w := range want {
				if !strings.Contains(l, w) {
					continue lines
				}
			}
			return true
		}
		return false
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// waitUntil waits until the screen passes ok.
func (j *journey) waitUntil(ok func(screen string) bool) {
	j.t.Helper()
	teatest.WaitFor(j.t, j.tm.Output(), func([]byte) bool {
		s := j.screen.Load()
		return s != nil && ok(*s)
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func (j *journey) screenNow() string {
	if s := j.screen.Load(); s != nil {
		return *s
	}
	return ""
}

func (j *journey) key(s string) { j.tm.Send(press(s)) }

// Filter, open a key, forget it: the dialog says what will happen and the
// result shows as a status message.
func TestJourneyFilterDetailForget(t *testing.T) {
	f := newFixture(t, 50, false)
	j := startJourney(t, f)
	j.waitFor("demo/widget-000000", "50 matched")

	j.key("/")
	j.tm.Type("widget-000042")
	j.key("enter")
	j.waitFor("filter widget-000042", "1–1 of 1 matched")

	j.key("enter")
	j.waitFor("widgets › demo/widget-000042", "Attempts (last 1, oldest first)", "Object not read")

	j.key("f")
	j.waitFor("Forget the backoff of widgets demo/widget-000042 (1 failure)?", "y yes")
	j.key("y")
	j.waitFor("forgot the backoff of 1 key of widgets; a pending retry keeps its time")
	if s := j.screenNow(); strings.Contains(s, "Forget the backoff of") {
		t.Errorf("the dialog is still shown after y:\n%s", s)
	}
}

// Pause, change a key behind the UI's back, refresh by hand: the changed
// row is marked, the others are not.
func TestJourneyPauseRefreshMarksChanges(t *testing.T) {
	f := newFixture(t, 5, false)
	j := startJourney(t, f)
	j.waitFor("demo/widget-000004")
	j.key("p")
	j.waitFor("⏸ PAUSED")

	f.fail("demo/widget-000003", "a new error")
	j.key("ctrl+r")
	j.waitLine("•", "demo/widget-000003", "a new error")
	for _, l := range strings.Split(j.screenNow(), "\n") {
		if (strings.HasPrefix(l, " •") || strings.HasPrefix(l, "›•")) && !strings.Contains(l, "demo/widget-000003") {
			t.Errorf("an unchanged row is marked: %q", l)
		}
	}
}

// The endpoint goes away: the header says so and the UI keeps running;
// it comes back: the UI recovers on its own.
func TestJourneyEndpointDisappearsAndRecovers(t *testing.T) {
	f := newFixture(t, 5, false)
	j := startJourney(t, f)
	j.waitFor("● connected", "demo/widget-000004")

	f.stop()
	j.waitFor("◌ reconnecting", "connection refused")
	j.waitFor("demo/widget-000004") // the last page stays on screen

	f.restart(t)
	j.waitFor("● connected", "updated")
	if s := j.screenNow(); strings.Contains(s, "reconnecting") {
		t.Errorf("still reconnecting after the endpoint came back:\n%s", s)
	}
}

// A key failed with a terminal error: the limiter never counted it, so
// FAILS says 0 as get and the JSON do, and the detail header says why it
// stops instead of "after 1 failures".
func TestJourneyFailedKeyCountsAsTheWire(t *testing.T) {
	f := newFixture(t, 3, false)
	const key = "demo/terminal-000001"
	_ = f.probe.Track(key, func() error { return reconcile.TerminalError(errors.New("spec.storageClass must be set")) })
	j := startJourney(t, f)
	j.waitLine("failed", key)
	var row []string
	for _, l := range strings.Split(j.screenNow(), "\n") {
		if strings.Contains(l, key) {
			row = strings.Fields(strings.TrimLeft(l, "›• "))
		}
	}
	i := slices.Index(row, key)
	if i < 0 || i+1 >= len(row) || row[i+1] != "0" {
		t.Errorf("FAILS of a key failed by a terminal error: row %q, want 0 after the key (failures: 0 on the wire)", row)
	}

	j.key("/")
	j.tm.Type("terminal")
	j.key("enter")
	j.waitFor("1–1 of 1 matched")
	j.key("enter")
	j.waitFor("widgets › " + key)
	j.waitLine("failed · terminal error, not retried")
	if s := j.screenNow(); strings.Contains(s, "failures") && strings.Contains(s, "after 1") {
		t.Errorf("the detail header still counts the terminal error as a failure:\n%s", s)
	}
}

// At 60 and 80 columns keys wider than the KEY column are cut in the
// middle: every row still names its own key, by its end.
func TestJourneyNarrowKeysStayApart(t *testing.T) {
	f := newFixture(t, 30, false)
	j := startJourney(t, f)
	j.waitFor("demo/widget-000009", "30 matched")
	for _, w := range []int{60, 80} {
		j.tm.Send(tea.WindowSizeMsg{Width: w, Height: 20})
		j.waitUntil(func(s string) bool { return ansi.StringWidth(splitLines(s)[0]) == w })
		seen := map[string]string{}
		for _, l := range splitLines(j.screenNow()) {
			i := strings.Index(l, "demo/")
			if i < 0 || strings.HasPrefix(l, "› demo/") {
				continue // no key, or the narrow screen's line of the selected key in full
			}
			cell := strings.Fields(l[i:])[0]
			if prev, ok := seen[cell]; ok {
				t.Errorf("at %d columns two rows show the key %q:\n%s\n%s", w, cell, prev, l)
			}
			seen[cell] = l
			if n := len(cell); n < 6 || strings.Trim(cell[n-6:], "0123456789") != "" {
				t.Errorf("at %d columns the key cell %q does not end with the key's number", w, cell)
			}
		}
		if len(seen) < 5 {
			t.Errorf("at %d columns %d rows with keys, want at least 5:\n%s", w, len(seen), j.screenNow())
		}
	}
}
