package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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
	m := newModel(context.Background(), Options{Clock: fixedClock, User: "alice"})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = send(t, m, refreshedMsg{seq: m.top.seq, overview: fixedOverview(), page: fixedPage(m.top.rows()), fetchedAt: t0})
	m = send(t, m, press("down"), press("r"), press("w"))
	if m.confirm == nil || !m.confirm.typing {
		t.Fatalf("w did not open the reason prompt: %+v", m.confirm)
	}
	m = send(t, m, typeText("dependency restored, yes")...)
	if m.confirm == nil {
		t.Fatal("typing the reason closed the dialog")
	}
	if s := screen(m); !strings.Contains(s, "Reason: dependency restored, yes") {
		t.Errorf("the dialog does not show the reason typed:\n%s", s)
	}
	m = send(t, m, press("enter"))
	if m.confirm == nil || m.confirm.typing {
		t.Fatalf("enter should end the typing and keep the dialog: %+v", m.confirm)
	}
	c := *m.confirm
	if _, done, _ := c.update(press("y"), &m.c.keys); !done {
		t.Fatal("y did not confirm")
	}
	reqs := c.act.requests()
	if len(reqs) != 1 || reqs[0].Reason != "dependency restored, yes" || reqs[0].User != "alice" || !reqs[0].Requeue {
		t.Errorf("requests = %+v, want one retry with the reason typed and user alice", reqs)
	}
}

// esc while typing drops the reason, not the dialog; without w there is none.
func TestConfirmReasonDropped(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("down"), press("r"), press("w"))
	m = send(t, m, typeText("oops")...)
	m = send(t, m, press("esc"))
	if m.confirm == nil || m.confirm.typing || m.confirm.reason.Value() != "" {
		t.Fatalf("esc while typing: want the dialog open, no reason; got %+v", m.confirm)
	}
	c := *m.confirm
	if _, done, _ := c.update(press("y"), &m.c.keys); !done {
		t.Fatal("y did not confirm")
	}
	if r := c.act.requests()[0]; r.Reason != "" || r.User != "" {
		t.Errorf("request = %+v, want no reason and no user", r)
	}
}
