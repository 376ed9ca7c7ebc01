package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// typeText presses each character of s.
func typeText(s string) []tea.Msg {
	msgs := make([]tea.Msg, 0, len(s))
	for _, r := range s {
		msgs = append(msgs, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return msgs
}

// The confirmation's optional reason: w opens the prompt, what is typed
// there (y and n included) is text, enter ends it, and the forget carries it
// with the user the UI was started with.
func TestConfirmReason(t *testing.T) {
	m := newModel(context.Background(), view.Options{Clock: fixedClock, User: "alice"})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	m = send(t, m, press("down"), press("r"), press("w"))
	if m.dialog() == nil || !m.dialog().Typing {
		t.Fatalf("w did not open the reason prompt: %+v", m.dialog())
	}
	m = send(t, m, typeText("dependency restored, yes")...)
	if m.dialog() == nil {
		t.Fatal("typing the reason closed the dialog")
	}
	if s := screen(m); !strings.Contains(s, "Reason: dependency restored, yes") {
		t.Errorf("the dialog does not show the reason typed:\n%s", s)
	}
	m = send(t, m, press("enter"))
	if m.dialog() == nil || m.dialog().Typing {
		t.Fatalf("enter should end the typing and keep the dialog: %+v", m.dialog())
	}
	c := *m.dialog()
	_, yes, _ := c.Update(press("y"))
	if yes == nil {
		t.Fatal("y did not confirm")
	}
	reqs := yes.Requests()
	if len(reqs) != 1 || reqs[0].Reason != "dependency restored, yes" || reqs[0].User != "alice" || !reqs[0].Requeue {
		t.Errorf("requests = %+v, want one retry with the reason typed and user alice", reqs)
	}
}

// esc while typing drops the reason, not the dialog; without w there is none.
func TestConfirmReasonDropped(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("down"), press("r"), press("w"))
	m = send(t, m, typeText("oops")...)
	m = send(t, m, press("esc"))
	if m.dialog() == nil || m.dialog().Typing || m.dialog().Reason.Value() != "" {
		t.Fatalf("esc while typing: want the dialog open, no reason; got %+v", m.dialog())
	}
	c := *m.dialog()
	_, yes, _ := c.Update(press("y"))
	if yes == nil {
		t.Fatal("y did not confirm")
	}
	if r := yes.Requests()[0]; r.Reason != "" || r.User != "" {
		t.Errorf("request = %+v, want no reason and no user", r)
	}
}

// The forget dialog says what a forget changes for the next failure, true
// for the limiter the key is on: the base delay again on a per-item
// exponential limiter; the token bucket still applying when the limiter has
// one, and above all when the bucket chose the delay now.
func TestForgetWordsPerLimiter(t *testing.T) {
	checkDialogWords(t, []dialogWordsCase{
		{"per-item exponential only", []string{"j", "j", "j", "f"}, "so its next failure waits the base delay again", "bucket", "demo/naive-00001"},
		// The outage's bucket holds 0.4 tokens: a failure borrows 0.6 of
		// one, repaid in 0.6/10 s = 60ms, more than the 5ms base (issue #23:
		// "the next failure waits at least 5ms" while it waited the bucket's).
		{"exponential chose, bucket in the limiter", []string{"j", "f"}, "its next failure waits about 60ms: the token bucket decides, not the failure count (0.4 of its 100 tokens left, refilled at 10 per second)", "base delay", "demo/outage-00003"},
		{"the bucket chose the delay", []string{"j", "j", "f"}, "its delay came from the token bucket, which a forget does not reset; its next failure waits about 60ms", "waits the base delay again", "demo/outage-00042"},
		{"bulk on a bucketed controller", []string{"tab", "tab", "F"}, "a next failure waits about 60ms: the token bucket decides", "waits only the base delay", ""},
		{"bulk on a per-item controller", []string{"tab", "F"}, "a next failure waits only the base delay", "bucket", ""},
	})
}

// The dialog follows the key while it is open: a refresh under it changes
// its failure count, as it changes the header's.
func TestConfirmFollowsTheKey(t *testing.T) {
	t.Run("top view", func(t *testing.T) {
		m := send(t, loaded(t, 120, 30), press("j"), press("f"))
		if !strings.Contains(screen(m), "demo/outage-00003 (9 failures)") {
			t.Fatalf("dialog:\n%s", screen(m))
		}
		page := fixedPage(m.tbl().Rows())
		page.Items[1].Failures = 10
		m.setTop(func(t *view.Top) { t.Seq++ })
		m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
		if s := screen(m); !strings.Contains(s, "demo/outage-00003 (10 failures)") {
			t.Errorf("after a refresh that counted a failure more, the dialog says:\n%s", s)
		}
	})
	t.Run("detail view", func(t *testing.T) {
		m := send(t, detailOf(t, loaded(t, 120, 30)), press("f"))
		d := fixedDetail()
		d.Key.Failures = 18
		m = send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})
		s := screen(m)
		if !strings.Contains(s, "demo/naive-00001 (18 failures)") || !strings.Contains(s, "backoff · 18 failures") {
			t.Errorf("the dialog and the header disagree after a refresh:\n%s", s)
		}
	})
	t.Run("one failure is singular", func(t *testing.T) {
		m := send(t, loaded(t, 120, 30), press("j"), press("f"))
		page := fixedPage(m.tbl().Rows())
		page.Items[1].Failures = 1
		m.setTop(func(t *view.Top) { t.Seq++ })
		m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
		if s := screen(m); !strings.Contains(s, "demo/outage-00003 (1 failure)?") {
			t.Errorf("want (1 failure):\n%s", s)
		}
	})
}

// The forget dialog says what is left pending as the key's state has it: a
// failed key has no retry to keep (it said "A pending retry keeps its time").
func TestForgetSaysWhatIsPending(t *testing.T) {
	for _, tt := range []struct {
		state api.State
		want  string
	}{
		{api.StateBackoff, "A pending retry keeps its time"},
		{api.StateScheduled, "Its pending re-check (RequeueAfter) keeps its time"},
		{api.StateFailed, "Nothing is pending: it runs again when its object changes"},
		{api.StateIdle, "r retries it now instead."},
	} {
		c := &widget.Confirmation{Act: widget.Action{Controller: "widget", Key: "default/w1", State: tt.state}}
		if got := strings.Join(c.Prompt(), "\n"); !strings.Contains(got, tt.want) {
			t.Errorf("%s: the dialog says\n%s\nwant %q", tt.state, got, tt.want)
		}
		if tt.state != api.StateBackoff && strings.Contains(strings.Join(c.Prompt(), "\n"), "A pending retry") {
			t.Errorf("%s: the dialog claims a pending retry", tt.state)
		}
	}
}

// dialogWordsCase is one row of the forget and retry dialogs' wording tests.
type dialogWordsCase struct {
	name      string
	keys      []string // presses from the top view
	want, not string
	wantKey   string
}

// checkDialogWords presses each case's keys from the top view and checks the
// dialog they open is on wantKey (when set), says want and does not say not.
func checkDialogWords(t *testing.T, cases []dialogWordsCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			m := loaded(t, 120, 30)
			for _, k := range tt.keys {
				m = send(t, m, press(k))
			}
			if m.dialog() == nil {
				t.Fatalf("no dialog after %v", tt.keys)
			}
			if tt.wantKey != "" && m.dialog().Act.Key != tt.wantKey {
				t.Fatalf("dialog on %s, want %s", m.dialog().Act.Key, tt.wantKey)
			}
			s := strings.Join(m.dialog().Prompt(), " ")
			if !strings.Contains(s, tt.want) {
				t.Errorf("the dialog does not say %q: %q", tt.want, s)
			}
			if tt.not != "" && strings.Contains(s, tt.not) {
				t.Errorf("the dialog says %q: %q", tt.not, s)
			}
		})
	}
}
