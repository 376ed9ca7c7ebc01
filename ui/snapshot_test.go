package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// A snapshot (top --file) is frozen at the time it was taken: its
// countdowns stay relative to its serverTime however long the UI shows it,
// p and ctrl+r (which mean nothing for a file) say so instead of pausing,
// and neither the hints line nor help offers them.
func TestSnapshotStaysFrozen(t *testing.T) {
	now := t0
	m := newModel(context.Background(), view.Options{Clock: func() time.Time { return now }})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	ov := fixedOverview()
	ov.Source = &api.ListSource{SnapshotAt: t0} // as a snapshot's server says
	for i := range ov.Controllers {
		ov.Controllers[i].Capabilities = api.Capabilities{ReadOnly: true}
	}
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	d := detailOf(t, m)

	for _, k := range []string{"p", "ctrl+r"} {
		for _, v := range []Model{m, d} {
			v = send(t, v, press(k))
			if v.c.Paused {
				t.Errorf("%s paused a snapshot", k)
			}
			if !strings.Contains(v.status, "a snapshot does not change") {
				t.Errorf("%s over a snapshot says %q, want why it does nothing", k, v.status)
			}
		}
	}
	for _, v := range []Model{m, d, send(t, m, press("g"), fixedGroups())} {
		if h := hintsLine(v); strings.Contains(h, "pause") || strings.Contains(h, "ctrl+r") {
			t.Errorf("%v: hints line %q offers pause or refresh over a snapshot", v.view(), h)
		}
		if s := screen(send(t, v, press("?"))); strings.Contains(s, "pause/resume") || strings.Contains(s, "refresh now") {
			t.Errorf("%v: help offers pause or refresh over a snapshot:\n%s", v.view(), s)
		}
	}

	// The group view says when the snapshot was taken, not how fresh a
	// read of the file is.
	if s := screen(send(t, m, press("g"), fixedGroups())); !strings.Contains(s, "snapshot taken at") || strings.Contains(s, "updated") {
		t.Errorf("the group view over a snapshot does not say it is one:\n%s", s)
	}

	// Time passes on the local clock, and no read comes (as while paused).
	// The models above share one Common (its status height): what was
	// drawn is taken just before.
	d = send(t, d, tea.WindowSizeMsg{Width: 120, Height: 30})
	table, detail := m.tbl().Table().Lines(), d.det().View()
	now = t0.Add(7 * time.Second)
	if after := m.tbl().Table().Lines(); strings.Join(after, "\n") != strings.Join(table, "\n") {
		t.Errorf("the snapshot's table moved with the local clock:\nbefore\n%s\nafter\n%s", strings.Join(table, "\n"), strings.Join(after, "\n"))
	}
	if after := d.det().View(); after != detail {
		t.Errorf("the snapshot's detail moved with the local clock:\nbefore\n%s\nafter\n%s", detail, after)
	}
}
