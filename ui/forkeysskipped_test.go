package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestTopForSaysKeysNotRead: `top --for configmaps --addr ADDR` over the
// cap of a list: the status line says the keys were not read (a failing
// ConfigMap hides: kstatus calls it Current), not that Events were, as
// why.List.EventsSkipped says in full; with Events skipped too, both; and
// never "nothing to wait for" beside it (all were Current by their
// status only).
func TestTopForSaysKeysNotRead(t *testing.T) {
	const keys = "the controller's keys of the 101 objects with no status were not read (101 objects, over 100): one it fails on is not listed; narrow the list to read them"
	const events = "the Events of the objects kstatus calls Current were not read (101 objects, over 100): one stuck with a Current status is not listed"
	for _, tt := range []struct {
		note        string
		keysSkipped int
		want, not   string
	}{
		{note: keys, keysSkipped: 101, want: "keys of 101 objects with no status not read (too many)", not: "Events"},
		{note: events + "; " + keys, keysSkipped: 101, want: "Events of the Current ones and keys of 101 objects with no status not read (too many)"},
		{note: events, want: "Events of the Current ones not read (too many)", not: "keys of"},
	} {
		l := &why.List{Total: 101, Kind: "ConfigMap", Resource: "configmaps", Answers: []*why.Answer{}, EventsSkipped: tt.note, KeysSkipped: tt.keysSkipped}
		list := func(context.Context) (*why.List, error) { return l, nil }
		m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "configmaps", List: list}})
		m = send(t, m, tea.WindowSizeMsg{Width: 240, Height: 24})
		m = runFor(t, m, m.refreshFor())
		s := screen(m)
		if !strings.Contains(s, tt.want) || (tt.not != "" && strings.Contains(lineWith(s, "not read"), tt.not)) {
			t.Errorf("note %q: the screen lacks %q (or says %q):\n%s", tt.note, tt.want, tt.not, s)
		}
		if strings.Contains(s, "selector") {
			t.Errorf("note %q: the screen suggests a selector, which top --for refuses (-l selects pods there):\n%s", tt.note, s)
		}
		if strings.Contains(s, "nothing to wait for") || !strings.Contains(s, "all 101 configmaps are Current by their status") {
			t.Errorf("note %q: the screen says there is nothing to wait for, or not that all are Current by their status, beside the note:\n%s", tt.note, s)
		}
	}
}
