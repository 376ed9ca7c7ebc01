package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// lineOf is the index of the first line of screen containing s, or -1.
func lineOf(screen, s string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// Re-sort under a still cursor: the key the user chose stays selected
// though its row moves, and an action acts on it.
func TestJourneyCursorFollowsKeyAcrossResort(t *testing.T) {
	f := newFixture(t, 5, false)
	j := startJourney(t, f)
	j.waitFor("demo/widget-000004")
	// An endpoint with the retrying and attention orders: on to next.
	for _, from := range []string{"sort retrying", "sort attention"} {
		if strings.Contains(j.screenNow(), from) {
			j.key("s")
			j.waitUntil(func(s string) bool { return !strings.Contains(s, from) })
		}
	}
	j.waitFor("sort next")
	// By next retry: 000000, 000003 (1 failure), 000001, 000004 (2), 000002 (3).
	// The header changes at once, the page when it arrives: move on that page.
	j.waitUntil(func(s string) bool {
		return lineOf(s, "demo/widget-000003") >= 0 && lineOf(s, "demo/widget-000003") < lineOf(s, "demo/widget-000001")
	})
	j.key("j")
	j.key("j")
	j.waitLine("›", "demo/widget-000001")
	before := lineOf(j.screenNow(), "demo/widget-000001")

	j.key("s") // failures: 000002 first, then 000001
	j.waitFor("sort failures")
	j.waitUntil(func(s string) bool { // the page sorted by failures arrived
		return lineOf(s, "demo/widget-000002") < lineOf(s, "demo/widget-000000")
	})
	j.waitLine("›", "demo/widget-000001")
	if after := lineOf(j.screenNow(), "demo/widget-000001"); after == before {
		t.Fatalf("the re-sort did not move the key's row (line %d): the test proves nothing\n%s", after, j.screenNow())
	}
	j.key("f")
	j.waitFor("Forget the backoff of widgets demo/widget-000001")
}

// When the key followed leaves the page, the cursor moves to its nearest
// neighbour and the status line says so.
func TestCursorMovesToNeighbourWhenKeyLeaves(t *testing.T) {
	m := loaded(t, 120, 30)
	m = send(t, m, press("j"), press("j")) // demo/outage-00042
	if k := m.tbl().Selected(); k == nil || k.Key.Key != "demo/outage-00042" {
		t.Fatalf("selected %v, want demo/outage-00042", k)
	}
	page := fixedPage(m.tbl().Rows())
	// The key is gone (forgotten, filtered out…); the rows around it stay.
	page.Items = append(page.Items[:2:2], page.Items[3:]...)
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if k := m.tbl().Selected(); k == nil || k.Key.Key != "demo/naive-00001" {
		t.Errorf("selected %v, want the neighbour below, demo/naive-00001", k)
	}
	if want := "demo/outage-00042 left the view; the cursor moved to its neighbour demo/naive-00001"; m.status != want {
		t.Errorf("status %q, want %q", m.status, want)
	}
	// Neither it nor its neighbours are shown: the first key, said so.
	other := fixedPage(40)
	other.Items = other.Items[30:] // demo/outage-00222 on: none was shown
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: other, FetchedAt: t0})
	if want := "demo/naive-00001 left the view; the cursor is on the first key, demo/outage-00222"; m.status != want || m.tbl().Cursor != 0 {
		t.Errorf("status %q at row %d, want %q at row 0", m.status, m.tbl().Cursor, want)
	}
	m = send(t, m, press("j"), press("k"))
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	m = send(t, m, press("j"), press("j"), press("j")) // demo/naive-00001, row 3
	// Rows reordered: the cursor follows the key, not the row.
	page = fixedPage(m.tbl().Rows())
	page.Items[0], page.Items[3] = page.Items[3], page.Items[0]
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if k := m.tbl().Selected(); k == nil || k.Key.Key != "demo/naive-00001" || m.tbl().Cursor != 0 {
		t.Errorf("selected %v at row %d, want demo/naive-00001 at row 0", k, m.tbl().Cursor)
	}
}

// On open the cursor is on the first row: under the retrying order, the
// key retrying longest.
func TestCursorOpensOnFirstRow(t *testing.T) {
	m := newModel(context.Background(), view.Options{Clock: fixedClock})
	if e, a := "retrying", m.tbl().Query().Sort; e != a {
		t.Errorf("default sort: want %q, got %q", e, a)
	}
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(5), FetchedAt: t0})
	if k := m.tbl().Selected(); k == nil || k.Key.Key != fixedPage(1).Items[0].Key.Key {
		t.Errorf("selected %v, want the first row", k)
	}
	// Until the user moves it, the cursor stays on the first row — the
	// worst key — as the rows change, and says nothing.
	page := fixedPage(5)
	page.Items[0], page.Items[3] = page.Items[3], page.Items[0]
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if k := m.tbl().Selected(); k == nil || k.Key.Key != page.Items[0].Key.Key || strings.Contains(m.status, "left the view") {
		t.Errorf("selected %v, status %q; want the new first row, no note", k, m.status)
	}
}

// A note about the table is the table's: while a key's detail is open it
// is not drawn over the detail, and it is there again back on the table.
func TestTableNoteNotShownOverDetail(t *testing.T) {
	m := loaded(t, 120, 30)
	m = send(t, m, press("j"), press("j")) // demo/outage-00042
	m = send(t, m, press("enter"))
	if m.view() != modeDetail {
		t.Fatalf("enter opened %v, want the detail", m.view())
	}
	page := fixedPage(m.tbl().Rows())
	page.Items = append(page.Items[:2:2], page.Items[3:]...) // the key leaves the table
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if !strings.Contains(m.status, "left the view") {
		t.Fatalf("status %q: the table made no note, the test proves nothing", m.status)
	}
	if s := m.statusShown(); s != "" {
		t.Errorf("over the detail the status line shows the table's note %q", s)
	}
	if strings.Contains(screen(m), "left the view") {
		t.Errorf("the detail's screen shows the table's note:\n%s", screen(m))
	}
	m = send(t, m, press("esc"))
	if s := m.statusShown(); !strings.Contains(s, "left the view") {
		t.Errorf("back on the table the status line shows %q, want the table's note", s)
	}
}
