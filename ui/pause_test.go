package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// Pause is immediate: a read under way when p is pressed (sent by the
// refresh clock before it) arrives while paused and changes nothing on
// screen, neither the rows nor "updated … ago". A read asked for while
// paused (ctrl+r) is shown. Against the real endpoint; the local clock is
// moved by hand.
func TestPauseDropsTheReadUnderWay(t *testing.T) {
	f := newFixture(t, 3, false)
	now := t0
	m := newModel(context.Background(), view.Options{Session: f.session(t), Clock: func() time.Time { return now }, Refresh: time.Second})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = send(t, m, m.refreshTop()())
	if s := screen(m); !strings.Contains(s, "demo/widget-000002") || !strings.Contains(s, "updated just now") {
		t.Fatalf("first read not shown:\n%s", s)
	}

	// A refresh is sent; the endpoint changes under it; p is pressed
	// before its answer arrives.
	now = now.Add(3 * time.Second)
	f.fail("demo/widget-000099", "a new failure")
	inflight := m.refreshTop()
	m = send(t, m, press("p"))
	before := screen(m)
	if !strings.Contains(before, "updated 3s ago") || strings.Contains(before, "widget-000099") {
		t.Fatalf("paused screen, before the read under way arrives:\n%s", before)
	}
	m = send(t, m, inflight())
	if after := screen(m); after != before {
		t.Errorf("a read sent before the pause changed the paused screen:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	// ctrl+r while paused refreshes once: its read is shown.
	next, cmd := m.Update(press("ctrl+r"))
	m = next.(Model)
	if cmd == nil {
		t.Fatal("ctrl+r while paused sent no read")
	}
	m = send(t, m, cmd())
	if s := screen(m); !strings.Contains(s, "widget-000099") || !strings.Contains(s, "updated just now") || !strings.Contains(s, "PAUSED") {
		t.Errorf("ctrl+r while paused: want the new key, a fresh read and still paused:\n%s", s)
	}
}

// The same in a key's detail: the detail's read under way when p is
// pressed does not change it.
func TestPauseDropsTheDetailReadUnderWay(t *testing.T) {
	f := newFixture(t, 3, false)
	now := t0
	m := newModel(context.Background(), view.Options{Session: f.session(t), Clock: func() time.Time { return now }, Refresh: time.Second})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = send(t, m, m.refreshTop()())
	next, cmd := m.Update(press("enter"))
	m = next.(Model)
	if m.view() != modeDetail || cmd == nil {
		t.Fatalf("enter did not open a key's detail with a read: view %v", m.view())
	}
	m = send(t, m, cmd())
	key := m.det().Key

	now = now.Add(3 * time.Second)
	f.fail(key, "another failure, while paused")
	inflight := m.onDetail((*view.Detail).Refresh)
	m = send(t, m, press("p"))
	before := screen(m)
	m = send(t, m, inflight())
	if after := screen(m); after != before {
		t.Errorf("a read of %s sent before the pause changed the paused detail:\nbefore:\n%s\nafter:\n%s", key, before, after)
	}
}

// Pressing p shows its hint, which takes a row from the table: paused, the
// page held is cut to fit (scrolled when the cursor was on its last row,
// so that its key stays on screen) instead of read again, which would
// land new rows after p as a late refresh did.
func TestPauseReadsNothingToFit(t *testing.T) {
	for _, lastRow := range []bool{false, true} {
		f := newFixture(t, 40, false)
		m := newModel(context.Background(), view.Options{Session: f.session(t), Clock: fixedClock, Refresh: time.Second})
		m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
		m = send(t, m, m.refreshTop()())
		// The legend goes, so that p's hint takes a row; then refit's
		// reads, as the header settles.
		m = send(t, m, statusExpiredMsg{id: m.statusID})
		for i := 0; m.tbl().Inflight; i++ {
			if i == 3 {
				t.Fatal("the page never fits")
			}
			m = send(t, m, m.refreshTop()())
		}
		if lastRow {
			for range m.tbl().ShownRows() - 1 {
				m = send(t, m, press("j"))
			}
		}
		sel := m.tbl().Selected().Key.Key
		seq, rows := m.tbl().Seq, m.tbl().Rows()
		m = send(t, m, press("p"))
		if m.tbl().Rows() != rows-1 {
			t.Fatalf("p's hint took no row: %d rows, then %d", rows, m.tbl().Rows())
		}
		if m.tbl().Seq != seq || m.tbl().Inflight {
			t.Errorf("last row %v: p sent a read of the page (seq %d → %d)", lastRow, seq, m.tbl().Seq)
		}
		if got := m.tbl().Selected(); got == nil || got.Key.Key != sel || m.tbl().Cursor >= m.tbl().ShownRows() {
			t.Errorf("last row %v: paused, the cursor left %s (row %d of %d shown)", lastRow, sel, m.tbl().Cursor, m.tbl().ShownRows())
		}
		if s := screen(m); !regexp.MustCompile(`› backoff +widgets +` + regexp.QuoteMeta(sel) + ` `).MatchString(s) {
			t.Errorf("last row %v: the selected key %s is not on screen:\n%s", lastRow, sel, s)
		}
	}
}
