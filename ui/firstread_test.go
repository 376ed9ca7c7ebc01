package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The first page shows as soon as the endpoint answers, before any tick of
// the refresh clock: the model is driven as Bubble Tea drives it (Init,
// the terminal's size, every read's answer as it comes; never a tick), and
// the page must land in the table kept on the stack. (Init's read was sent
// from a copy of the table, whose read number the kept table did not
// expect: the answer was dropped, and the first page waited up to a
// second, for the clock's first read.) The first page fills the screen,
// with no row marked as changed: nothing has changed yet.
func TestFirstReadShowsBeforeTheFirstTick(t *testing.T) {
	m := demoModel(t)
	msgs := make(chan tea.Msg, 16)
	run(m.Init(), msgs)
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m = next.(Model)
	run(cmd, msgs)
	m = updateUntil(t, m, msgs, func(m Model) bool { return m.tbl().Page != nil && !m.tbl().Inflight }, func(m Model) string {
		return fmt.Sprintf("no first page within 5s without a tick (the table kept expects read %d); want it once the endpoint answers", m.tbl().Seq)
	})
	if n, rows := len(m.tbl().Page.Items), m.tbl().Rows(); n != rows {
		t.Errorf("the first page holds %d keys for %d rows", n, rows)
	}
	scr := screen(m)
	if !strings.Contains(scr, "demo/naive-00005") {
		t.Errorf("the first screen does not show the worst key:\n%s", scr)
	}
	if strings.Contains(scr, "•") {
		t.Errorf("the first screen marks rows as changed:\n%s", scr)
	}
}

// run runs cmd as Bubble Tea does, each command of a batch on its own, and
// sends what the views' reads answer to msgs: the refresh clock's ticks
// and the status line's expiry are never delivered (they wait out their
// period), nor is anything else.
func run(cmd tea.Cmd, msgs chan<- tea.Msg) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				run(c, msgs)
			}
		case view.ReadMsg:
			msgs <- msg
		}
	}()
}

// When the first answer comes before the terminal says its size, the page
// read again to fit the larger screen brings rows not seen before: they are
// the screen's new rows, not rows that changed, and are not marked "•".
func TestFirstPageRefittedMarksNoRow(t *testing.T) {
	m := demoModel(t)
	msgs := make(chan tea.Msg, 16)
	next, cmd := m.Update(firstReadOf(t, m.Init()))
	m = next.(Model)
	run(cmd, msgs)
	next, cmd = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	run(cmd, msgs)
	if m.tbl().Page == nil || !m.tbl().Inflight {
		t.Fatalf("the first page (%v) is not read again for %d rows", m.tbl().Page != nil, m.tbl().Rows())
	}
	m = updateUntil(t, m, msgs, func(m Model) bool { return !m.tbl().Inflight }, func(Model) string {
		return "the page read again to fit did not answer within 5s"
	})
	if scr := screen(m); strings.Contains(scr, "•") {
		t.Errorf("the rows the larger screen adds are marked as changed (the demo's clock stands still: nothing changed):\n%s", scr)
	}
}

// firstReadOf runs the commands of Init's batch, each on its own, and
// returns the first read's answer, within a deadline.
func firstReadOf(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	msgs := make(chan tea.Msg, 4)
	run(cmd, msgs)
	select {
	case msg := <-msgs:
		return msg
	case <-time.After(5 * time.Second):
		t.Fatal("Init's read did not answer within 5s")
	}
	return nil
}

// demoModel is the top model over the demo world's endpoint, with the
// demo's clock.
func demoModel(t *testing.T) Model {
	t.Helper()
	r, srv := demoWorld(t)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return newModel(context.Background(), view.Options{Session: s, Clock: r.Clock.Now})
}

// updateUntil hands m each answer msgs brings, running what it returns,
// until done(m); if that takes more than 5s, it fails the test with what
// failure says of m.
func updateUntil(t *testing.T, m Model, msgs chan tea.Msg, done func(Model) bool, failure func(Model) string) Model {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for !done(m) {
		select {
		case msg := <-msgs:
			next, cmd := m.Update(msg)
			m = next.(Model)
			run(cmd, msgs)
		case <-deadline:
			t.Fatal(failure(m))
		}
	}
	return m
}
