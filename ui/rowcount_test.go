package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// tableRow is a row of the table as drawn: the cursor and mark columns,
// then a state.
var tableRow = regexp.MustCompile(`^[ ›][ •*](backoff|sched|scheduled|queued|run|running|failed|idle|unkn|unknown) `)

// position is the header's "1–23 of 100 matched": from and to.
var position = regexp.MustCompile(`(\d+)–(\d+) of [\d,]+ matched`)

// countAgrees checks that the header's position counts the rows drawn.
func countAgrees(t *testing.T, where string, m Model) {
	t.Helper()
	s := screen(m)
	drawn := 0
	for _, l := range splitLines(s) {
		if tableRow.MatchString(l) {
			drawn++
		}
	}
	p := position.FindStringSubmatch(s)
	if p == nil {
		t.Fatalf("%s: no position in the header:\n%s", where, s)
	}
	from, _ := strconv.Atoi(p[1])
	to, _ := strconv.Atoi(p[2])
	if to-from+1 != drawn || drawn == 0 {
		t.Errorf("%s: the header says %s, with %d rows drawn:\n%s", where, p[0], drawn, s)
	}
}

// The header's count matches the rows drawn on every frame: the first
// screen (whose legend takes a line over the hints), and the first frame
// after tab to the demo's outage controller, whose diagnosis wraps to two
// lines once read (the page was asked for before: it has a row too many).
func TestRowCountMatchesRowsDrawn(t *testing.T) {
	r, srv := demoWorld(t)
	m := firstScreen(t, r, srv, 120, 32)
	countAgrees(t, "first screen", m)
	for range 4 {
		if m.tbl().Controller == "outage" {
			break
		}
		m = send(t, m, press("tab"))
	}
	if m.tbl().Controller != "outage" {
		t.Fatalf("tab never reached the outage controller")
	}
	msg := m.refreshTop()()
	m = send(t, m, msg)
	if !strings.Contains(screen(m), "controller outage") || len(m.tbl().Header().DiagnosisLines()) != 2 {
		t.Fatalf("want outage's diagnosis on two lines:\n%s", screen(m))
	}
	countAgrees(t, "first frame of outage", m)
	if len(m.tbl().Page.Items) != m.tbl().Rows() && (!m.tbl().Inflight || m.tbl().Asked != m.tbl().Rows()) {
		t.Errorf("the page of %d keys for %d rows is not read again (asked %d)", len(m.tbl().Page.Items), m.tbl().Rows(), m.tbl().Asked)
	}
	// The page read again to fit has exactly the rows drawn.
	msg = m.refreshTop()()
	m = send(t, m, msg)
	countAgrees(t, "outage, read again", m)
	if n := len(m.tbl().Page.Items); n != m.tbl().ShownRows() {
		t.Errorf("page of %d keys for %d rows", n, m.tbl().ShownRows())
	}
}

// When the rows that fit change (the footer's status goes), the page is
// read again at the new size, so that the screen fills and a page down
// moves by the rows seen.
func TestRowsChangedReadsThePageAgain(t *testing.T) {
	r, srv := demoWorld(t)
	m := firstScreen(t, r, srv, 120, 32)
	// The first page was asked for before the header and the legend took
	// their lines: it is read again to fit.
	if !m.tbl().Inflight || m.tbl().Asked != m.tbl().Rows() {
		t.Fatalf("the first page of %d keys is not read again for %d rows (asked %d)", len(m.tbl().Page.Items), m.tbl().Rows(), m.tbl().Asked)
	}
	msg := m.refreshTop()()
	m = send(t, m, msg)
	if m.status == "" {
		t.Fatalf("want a legend on the first screen")
	}
	before := m.tbl().Rows()
	m = send(t, m, statusExpiredMsg{id: m.statusID})
	if m.tbl().Rows() != before+1 {
		t.Fatalf("rows %d with the status gone, want %d", m.tbl().Rows(), before+1)
	}
	if !m.tbl().Inflight || m.tbl().Asked != m.tbl().Rows() {
		t.Fatalf("the page of %d keys is not read again for %d rows (asked %d)", len(m.tbl().Page.Items), m.tbl().Rows(), m.tbl().Asked)
	}
	countAgrees(t, "status gone, before the read", m)
	msg = m.refreshTop()()
	m = send(t, m, msg)
	countAgrees(t, "status gone, read again", m)
	// A legend may come back with the read (a row changed): read again then.
	if n := len(m.tbl().Page.Items); n != m.tbl().Rows() && (!m.tbl().Inflight || m.tbl().Asked != m.tbl().Rows()) {
		t.Errorf("page of %d keys for %d rows, not read again", n, m.tbl().Rows())
	}
}

// The cursor on the last row stays on its key when a status takes the
// row it was on: the page read again to fit scrolls by one instead.
func TestRowsShrinkUnderTheCursor(t *testing.T) {
	m := loaded(t, 120, 30)
	m = send(t, m, statusExpiredMsg{id: m.statusID})
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	if m.status != "" || len(m.tbl().Page.Items) != m.tbl().Rows() {
		t.Fatalf("want a full page and no status; status %q, %d keys for %d rows", m.status, len(m.tbl().Page.Items), m.tbl().Rows())
	}
	for range m.tbl().Rows() - 1 {
		m = send(t, m, press("down"))
	}
	offset := m.tbl().Offset
	if m.tbl().Cursor != m.tbl().Rows()-1 {
		t.Fatalf("cursor %d, want the last row %d", m.tbl().Cursor, m.tbl().Rows()-1)
	}
	m, _ = act(t, m, view.NoteIntent{Text: "a status"})
	if m.withTable((*view.Top).Refit) == nil {
		t.Fatal("the rows shrank and the page is not read again")
	}
	if m.tbl().Cursor >= m.tbl().Rows() || m.tbl().Offset != offset+1 {
		t.Errorf("the status hid the cursor's row: cursor %d of %d rows, offset %d (was %d)", m.tbl().Cursor, m.tbl().Rows(), m.tbl().Offset, offset)
	}
}
