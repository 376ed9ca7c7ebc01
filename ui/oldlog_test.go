package ui

import (
	"strings"
	"testing"
)

// TestOldLogNextIsAfterItsEnd: a log that ended minutes ago or more says
// its retries as time after its end, in NEXT ("+4m40s") and the forecast,
// and the header says so (from 100 columns: under, the forecast's "after
// log end" says it); a year-old log's "NEXT 2s" read as a live
// countdown (newcomer ui11). logWorld ends at 10:00:30, 5m55s before
// fixedClock; flux-system/apps' next try is 10:05:10.
func TestOldLogNextIsAfterItsEnd(t *testing.T) {
	for _, sz := range [][2]int{{160, 45}, {80, 24}} {
		scr := screen(logsTop(t, sz[0], sz[1]))
		lines := splitLines(scr)
		if sz[0] >= 100 && !strings.Contains(lines[0], "NEXT counts from it") {
			t.Errorf("%dx%d: the header does not say NEXT counts from the log's end:\n%s", sz[0], sz[1], scr)
		}
		if !strings.Contains(scr, "due 60s after log end") {
			t.Errorf("%dx%d: the forecast reads as a countdown:\n%s", sz[0], sz[1], scr)
		}
		for _, l := range lines {
			if strings.Contains(l, "flux-system/apps") && !strings.Contains(l, " +4m40s ") {
				t.Errorf("%dx%d: flux-system/apps' NEXT is not said after the log's end:\n%s", sz[0], sz[1], l)
			}
		}
		// The detail of the first row, flux-system/apps, says it too.
		m := logsTop(t, sz[0], sz[1])
		next, cmd := m.Update(press("enter"))
		m = next.(Model)
		if cmd != nil {
			m = send(t, m, cmd())
		}
		if d := screen(m); !strings.Contains(d, "next retry +4m40s after log end") {
			t.Errorf("%dx%d: the detail's next retry reads as a countdown:\n%s", sz[0], sz[1], d)
		}
	}
}
