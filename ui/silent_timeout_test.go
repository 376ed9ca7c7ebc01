package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// Issue #47 item 4: a stopped endpoint (SIGSTOP) was "● connected" again
// from the moment its read timed out until the next read had waited two
// refreshes: connected means a fresh answer came, not that no read waits.
func TestTopNotConnectedBetweenTimedOutReads(t *testing.T) {
	m := loaded(t, 120, 30)
	at := t0
	m.c.Opts.Clock = func() time.Time { return at }
	m.refreshTop() // sent at t0; the endpoint is stopped
	at = t0.Add(10 * time.Second)
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Err: context.DeadlineExceeded, PageErr: context.DeadlineExceeded, FetchedAt: at})
	for _, d := range []time.Duration{0, time.Second / 2, 3 * time.Second} {
		at = t0.Add(10*time.Second + d)
		if s := screen(m); strings.Contains(s, "● connected") || !strings.Contains(s, "not answering") {
			t.Errorf("%v after the read timed out, no read in flight: want not answering, not connected:\n%s", d, s)
		}
	}
	m.refreshTop()
	if s := screen(m); strings.Contains(s, "● connected") {
		t.Errorf("the next read sent, unanswered: want not connected:\n%s", s)
	}
}
