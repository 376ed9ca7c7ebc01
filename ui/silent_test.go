package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// Issue #32 item 8: an endpoint that takes the connection and says nothing
// (SIGSTOP) left "● connected · updated 9s ago". Once a read has gone
// unanswered for two refreshes the header says "not answering since" the
// time it was sent, and the last answer stays, dimmed; before that, and
// once it answers again, it is connected.
func TestTopSaysNotAnsweringAfterTwoMissedRefreshes(t *testing.T) {
	m := loaded(t, 120, 30)
	at := t0
	m.c.Opts.Clock = func() time.Time { return at }
	m.refreshTop() // sent at t0; no answer comes
	if !m.tbl().Inflight {
		t.Fatal("refresh did not mark a read in flight")
	}
	row := func(m Model) string { // a row below the cursor's, as drawn
		for _, l := range strings.Split(m.View().Content, "\n") {
			if strings.Contains(l, "demo/outage-00003") {
				return l
			}
		}
		return ""
	}
	lively := row(m)

	at = t0.Add(2*m.c.Opts.Refresh - time.Millisecond)
	if s := screen(m); !strings.Contains(s, "● connected") || strings.Contains(s, "not answering") {
		t.Errorf("under two refreshes into the wait, want connected:\n%s", s)
	}
	at = t0.Add(2 * m.c.Opts.Refresh)
	s := screen(m)
	if !strings.Contains(s, "✗ not answering since 10:06:25") || strings.Contains(s, "● connected") {
		t.Errorf("two refreshes unanswered, want \"not answering since 10:06:25\" and not connected:\n%s", s)
	}
	if !strings.Contains(s, "demo/outage-00003") {
		t.Errorf("the last answer left the screen:\n%s", s)
	}
	if dimmed := row(m); dimmed == lively || dimmed != m.c.Styles.Dim.Render(ansi.Strip(dimmed)) {
		t.Errorf("the last answer's rows are not dimmed: %q (was %q)", dimmed, lively)
	}

	// The read times out (--request-timeout) and the next one is sent: the
	// same outage, still counted from its first unanswered read.
	at = t0.Add(10 * time.Second)
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Err: context.DeadlineExceeded, PageErr: context.DeadlineExceeded, FetchedAt: at})
	m.refreshTop()
	if s := screen(m); !strings.Contains(s, "✗ not answering since 10:06:25") || strings.Contains(s, "reconnecting") {
		t.Errorf("after a read timed out, want still \"not answering since 10:06:25\":\n%s", s)
	}

	// The answer comes: connected again.
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(m.tbl().Rows()), FetchedAt: at})
	if s := screen(m); !strings.Contains(s, "● connected") || strings.Contains(s, "not answering") {
		t.Errorf("answered again, want connected:\n%s", s)
	}
}
