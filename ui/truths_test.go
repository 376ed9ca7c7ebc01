package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The small truths: each message says what is so, and what a key does.
func TestSmallTruths(t *testing.T) {
	t.Run("forget an idle key with nothing to forget", func(t *testing.T) {
		m := loaded(t, 120, 30)
		for range 7 { // demo/outage-00900, idle, 0 failures
			m = send(t, m, press("j"))
		}
		m = send(t, m, press("f"))
		if m.dialog() != nil || m.status != "demo/outage-00900 is idle with 0 failures: nothing to forget (r retries it now)" {
			t.Errorf("confirm %v, status %q: want no dialog and a note", m.dialog(), m.status)
		}
		if m = send(t, m, press("r")); m.dialog() == nil {
			t.Errorf("r on an idle key asks nothing; want its confirmation")
		}
	})
	t.Run("bulk dialog shows the filter as typed", func(t *testing.T) {
		m := loaded(t, 120, 30)
		m.setTop(func(t *view.Top) { t.Filter.Set(`~outage-\d+`) })
		m = send(t, m, press("F"))
		if s := screen(m); !strings.Contains(s, `matching "~outage-\d+"`) {
			t.Errorf("the dialog does not show the filter as typed:\n%s", s)
		}
	})
	t.Run("state toggles say what they do", func(t *testing.T) {
		m := send(t, loaded(t, 120, 30), press("1"))
		if e, a := "showing only backoff keys; 1 again shows every state", m.status; e != a {
			t.Errorf("after 1: want %q, got %q", e, a)
		}
		m = send(t, m, press("5"))
		if e, a := "showing only backoff, failed keys; 5 again hides it", m.status; e != a {
			t.Errorf("after 5: want %q, got %q", e, a)
		}
		m = send(t, m, press("1"), press("5"))
		if e, a := "showing every state again (5 shows only failed)", m.status; e != a {
			t.Errorf("after 1, 5 again: want %q, got %q", e, a)
		}
	})
	t.Run("a scheduled key whose time came is due", func(t *testing.T) {
		for _, d := range []time.Duration{-time.Second, 0} {
			if got := text.Countdown(t0.Add(d), t0); got != "due" {
				t.Errorf("countdown %v: %q, want due", d, got)
			}
		}
		// Not yet due: the one formatter's words, as get and describe say it.
		if got := text.Countdown(t0.Add(120*time.Millisecond), t0); got != "<1s" {
			t.Errorf("countdown 120ms: %q, want <1s", got)
		}
	})
	t.Run("the header counts failures as the wire does", func(t *testing.T) {
		gaveUp := &api.Reset{At: t0, By: api.ResetGaveUp, Failures: 5}
		for _, tt := range []struct {
			k    api.Key
			want string
		}{
			{api.Key{State: api.StateBackoff, Failures: 1, TotalFailures: 1}, "1 failure"},
			{api.Key{State: api.StateBackoff, Failures: 17, TotalFailures: 20}, "17 failures"},
			// A terminal error is never rate-limited: 0 consecutive, 1 in total.
			{api.Key{State: api.StateFailed, Failures: 0, TotalFailures: 1}, "terminal error, not retried"},
			{api.Key{State: api.StateFailed, Failures: 3, TotalFailures: 4}, "terminal error, not retried · 3 failures counted"},
			{api.Key{State: api.StateFailed, TotalFailures: 6, LastReset: gaveUp, LastReconcileAt: t0}, "gave up after 5 retries, not retried"},
			// A log shows the give-up line, not the retries before it.
			{api.Key{State: api.StateFailed, TotalFailures: 1, Source: api.SourceLogs, LastReset: &api.Reset{At: t0, By: api.ResetGaveUp, Failures: 1}, LastReconcileAt: t0},
				"gave up (retry limit reached), not retried"},
		} {
			if got := view.FailuresText(&tt.k); got != tt.want {
				t.Errorf("failuresText(%s, %d of %d): %q, want %q", tt.k.State, tt.k.Failures, tt.k.TotalFailures, got, tt.want)
			}
		}
	})
	t.Run("help says FAILS leaves a terminal error out", func(t *testing.T) {
		// A failed key shows FAILS 0 (TestJourneyFailedKeyCountsAsTheWire):
		// help must not leave the user to guess why.
		m := send(t, loaded(t, 80, 24), press("?"))
		help := helpText(m)
		if want := "FAILS consecutive failures, as the rate limiter counts them (0 after a forget or success; a terminal error is not counted"; !strings.Contains(help, want) {
			t.Errorf("help does not say %q:\n%s", want, help)
		}
	})
	t.Run("help says the forecast counts re-checks too", func(t *testing.T) {
		m := send(t, loaded(t, 80, 24), press("?"))
		help := helpText(m)
		if want := "backoff keys' retries and scheduled keys' RequeueAfter re-checks alike"; !strings.Contains(help, want) {
			t.Errorf("help does not say %q:\n%s", want, help)
		}
	})
	t.Run("no claim of --addr without a reason given", func(t *testing.T) {
		m := detailOf(t, loaded(t, 120, 30))
		m.setDetail(func(d *view.Detail) { d.Data.Object = nil })
		if s := screen(send(t, m, press("G"))); strings.Contains(s, "--addr") || !strings.Contains(s, "no cluster access in this session") {
			t.Errorf("the object line claims --addr:\n%s", s)
		}
	})
}

// Each mark is explained in the footer the first time it appears, once.
func TestLegendsOnce(t *testing.T) {
	m := loaded(t, 120, 30) // the dataset has retries pending: the forecast shows
	if want := "│▁▃█│ counts the keys falling due over the next 60s (? explains every mark)"; m.status != want {
		t.Errorf("first refresh: status %q, want %q", m.status, want)
	}
	page := fixedPage(m.tbl().Rows())
	page.Items[2].Failures++ // a row changes
	page.Items[3].Estimated = true
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if want := "• marks a row that changed since the previous refresh; * marks a key estimated from logs (? explains every mark)"; m.status != want {
		t.Errorf("second refresh: status %q, want %q", m.status, want)
	}
	if s := screen(m); !strings.Contains(s, " •backoff") || !strings.Contains(s, " *backoff") {
		t.Errorf("the marks are not shown:\n%s", s)
	}
	m.status = ""
	page.Items[2].Failures++
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if m.status != "" {
		t.Errorf("a legend shown twice: %q", m.status)
	}
}

// helpText is m's help as one line of words, unwrapped: a break after a
// hyphen ("re-\nchecks") joins without a space.
func helpText(m Model) string {
	words := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.hlp().Lines(), "\n"))), " ")
	return strings.ReplaceAll(words, "- ", "-")
}

// A forget's result stays in the footer when the refresh it triggers shows
// changed rows for the first time: the legend waits.
func TestLegendWaitsForAnActionsResult(t *testing.T) {
	m := loaded(t, 120, 30)
	m = send(t, m, forgetDoneMsg{act: widget.Action{Controllers: []string{"outage"}, Filter: &api.Filter{Q: "x"}, What: "matching \"x\" of outage"}, count: 3})
	want := m.status
	if !strings.HasPrefix(want, "forgot the backoff of 3 keys") {
		t.Fatalf("status after the forget: %q", want)
	}
	page := fixedPage(m.tbl().Rows())
	page.Items[2].Failures++ // a row changes: "•" is new
	m.setTop(func(t *view.Top) { t.Seq++ })
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
	if m.status != want {
		t.Errorf("after the refresh the status is %q, want the forget's %q", m.status, want)
	}
}
