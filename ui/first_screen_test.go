package ui

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// demoWorld is demo.FirstOutage (seed 7, a minute into its first outage)
// served by the real handler.
func demoWorld(t *testing.T) (*demo.Replay, *httptest.Server) {
	t.Helper()
	r, err := demo.FirstOutage()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	srv := httptest.NewServer(r.Handler())
	t.Cleanup(srv.Close)
	return r, srv
}

// firstScreen is `top` as it opens on the demo world: the UI's normal
// options (default sort), one refresh from the real endpoint, at w×h.
func firstScreen(t *testing.T, r *demo.Replay, srv *httptest.Server, width, height int) Model {
	t.Helper()
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(context.Background(), view.Options{Session: s, Clock: r.Clock.Now})
	m = send(t, m, tea.WindowSizeMsg{Width: width, Height: height})
	return opened(t, m)
}

// opened is m once the first read Init sends (view.Opening's, at the size
// the UI opened with) has answered, and the page was read again at m's
// size, as the refit after it reads it.
func opened(t *testing.T, m Model) Model {
	t.Helper()
	m = send(t, m, m.first())
	return send(t, m, m.refreshTop()())
}

// port is the endpoint's port on the header's replica: the one thing on
// screen that differs between runs (ephemeral ports all have 5 digits).
var port = regexp.MustCompile(`127\.0\.0\.1:\d{5}`)

// outageDiagnosis is how the outage's diagnosis line begins, as far as 80
// columns show it.
// The first rows are naive's, failing longest: the line says so.
var outageDiagnosis = regexp.MustCompile(`^worst of \d( controllers in trouble| in trouble)? \(rows: longest failing first\): outage — \d+ keys backing off since 08:00:`)

// The first screen of top on the demo answers the question: failing keys
// first, the longest failing on top, under the worst controller's diagnosis.
func TestFirstScreenOnTheDemo(t *testing.T) {
	r, srv := demoWorld(t)
	for _, sz := range []struct {
		name string
		w, h int
	}{{"120x30", 120, 30}, {"80x24", 80, 24}} {
		t.Run(sz.name, func(t *testing.T) {
			m := firstScreen(t, r, srv, sz.w, sz.h)
			if m.tbl().Err != nil {
				t.Fatalf("refresh: %v", m.tbl().Err)
			}
			page := m.tbl().Page
			if page == nil || len(page.Items) < m.tbl().Rows() {
				t.Fatalf("page %v: want a full screen of %d rows", page, m.tbl().Rows())
			}
			// Every row on the first screen is in trouble (the world has far
			// more failing keys than fit), in the retrying order: keys in
			// backoff before failed ones, the longest failing first.
			for i, k := range page.Items {
				if k.State != api.StateBackoff && k.State != api.StateFailed {
					t.Errorf("row %d: %s is %s; want only failing keys on the first screen", i, k.Key.Key, k.State)
				}
				if i > 0 && k.State == api.StateBackoff && page.Items[i-1].State == api.StateFailed {
					t.Errorf("row %d: %s is in backoff below a failed key; want the keys still retrying first", i, k.Key.Key)
					continue
				}
				if i > 0 && k.State != page.Items[i-1].State {
					continue // the failed keys start over: longest failed first
				}
				if i > 0 && k.FirstFailureAt.Before(page.Items[i-1].FirstFailureAt) {
					t.Errorf("row %d: %s failing since %v, after row %d failing since %v: want the longest failing first",
						i, k.Key.Key, k.FirstFailureAt, i-1, page.Items[i-1].FirstFailureAt)
				}
			}
			if sel := m.tbl().Selected(); sel == nil || sel.Key.Key != page.Items[0].Key.Key {
				t.Errorf("the cursor is on %v; want the first row, %s", sel, page.Items[0].Key.Key)
			}
			scr := screen(m)
			if !strings.Contains(scr, "sort retrying") {
				t.Errorf("the default sort is not retrying:\n%s", scr)
			}
			// The outage is the worst: many keys on one transient error.
			// The diagnosis wraps to two lines when it does not fit one.
			if line := strings.Join(strings.Fields(strings.Join(splitLines(scr)[2:4], " ")), " "); !outageDiagnosis.MatchString(line) {
				t.Errorf("the diagnosis line %q does not match %s", line, outageDiagnosis)
			}
			golden.RequireEqual(t, port.ReplaceAllString(scr, "127.0.0.1:PORT0"))
		})
	}
}

// The error groups behind the diagnosis cost the endpoint a pass over every
// key: a viewer reads them every diagnosisEvery, not on every refresh.
func TestDiagnosisGroupsReadEveryFewSeconds(t *testing.T) {
	const refresh = 100 * time.Millisecond
	f := newFixture(t, 20, false)
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	// The controller is named, as --controller does: left to be chosen from
	// the first answer, a read sent before that answer (the window size's,
	// when the machine is slow) asks for no groups, and the next one does,
	// for the controller now chosen: one read more at start, at a time the
	// machine decides.
	j := startJourneyWith(t, view.Options{Session: f.session(t), Refresh: refresh, Namespace: "demo", Controller: "widgets", Clock: clock})
	j.waitFor("demo/widget-000000", "widgets — 20 keys")
	deadline := time.Now().Add(10 * time.Second)
	// The first read asks for the groups; its three calls run at once, so
	// the screen may show its page (or the window size's read's) before
	// the groups' answer is in. Until it is, the view cannot know that
	// the keys failing now were failing when it asked, and asks again.
	for f.answersFrom("v1/errors") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the first read never asked for the error groups")
		}
		time.Sleep(time.Millisecond)
	}
	startup := f.callsTo("v1/errors")
	// Refreshes come due on the UI's clock: step it by two refresh periods,
	// wait for the refresh that makes due, ten times: two seconds of its time.
	for seen := f.callsTo("v1/keys"); seen < 10; {
		now.Add(int64(2 * refresh))
		for f.callsTo("v1/keys") == seen {
			if time.Now().After(deadline) {
				t.Fatalf("%d refreshes, want 10", seen)
			}
			time.Sleep(time.Millisecond)
		}
		seen = f.callsTo("v1/keys")
	}
	if n := f.callsTo("v1/errors") - startup; n != 0 {
		t.Errorf("%d refreshes within two seconds read the error groups %d more times, want none", f.callsTo("v1/keys"), n)
	}
	now.Add(int64(view.DiagnosisEvery))
	for f.callsTo("v1/errors") < startup+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the error groups were not read again %v later", view.DiagnosisEvery)
		}
		time.Sleep(time.Millisecond)
	}
}
