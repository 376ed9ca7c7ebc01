package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// A running key has no next retry: its NEXT RETRY cell says how long it has
// been running as such ("for 3s"; `get` says "running 3s"), never a bare
// "3s" that reads as "retries in 3s". Where the whole time does not fit the
// column (80 and 60 columns), it is said to the minute, never cut.
func TestRunningNextRetryCell(t *testing.T) {
	for _, tt := range []struct {
		running time.Duration
		want    map[int]string // width → cell
	}{
		{3 * time.Second, map[int]string{120: "for 3s", 80: "for 3s", 60: "for 3s"}},
		{400 * time.Millisecond, map[int]string{120: "for <1s", 80: "for <1s", 60: "for <1s"}},
		{45 * time.Second, map[int]string{120: "for 45s", 80: "for 45s", 60: "for 45s"}},
		{12*time.Minute + 5*time.Second, map[int]string{120: "for 12m5s", 80: "for 12m", 60: "for 12m"}},
		{2*time.Hour + 7*time.Minute, map[int]string{120: "for 2h7m", 80: "for 2h7m", 60: "for 2h"}}, // unpadded, 2h7m fits 80 columns whole
	} {
		for _, sz := range [][2]int{{120, 30}, {80, 24}, {60, 20}} {
			m := loaded(t, sz[0], sz[1])
			page := fixedPage(m.tbl().Rows())
			page.Items[5].StartedAt = t0.Add(-tt.running) // demo/outage-00007, running
			m.setTop(func(t *view.Top) { t.Seq++ })
			m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
			var row string
			for _, l := range strings.Split(screen(m), "\n") {
				if strings.Contains(l, "outage-00007") && !strings.HasPrefix(l, "›") {
					row = l
				}
			}
			if row == "" {
				t.Fatalf("%dx%d: no row of the running key:\n%s", sz[0], sz[1], screen(m))
			}
			want := tt.want[sz[0]]
			// The cell, whole, ends where the right-aligned column does:
			// before DELAY's or, at 60 columns, the error's. The column is
			// as wide as its widest value, so the padding before it is not
			// counted.
			if !regexp.MustCompile(` 2 +` + regexp.QuoteMeta(want) + ` `).MatchString(row) {
				t.Errorf("%dx%d, running %v: the NEXT RETRY cell is not %q:\n%s", sz[0], sz[1], tt.running, want, row)
			}
			if w := ansi.StringWidth(row); w > sz[0] {
				t.Errorf("%dx%d: the row is %d wide:\n%s", sz[0], sz[1], w, row)
			}
			if s := screen(m); !strings.Contains(s, "4m12s") {
				t.Errorf("%dx%d: a backoff key's countdown changed:\n%s", sz[0], sz[1], s)
			}
		}
	}
}
