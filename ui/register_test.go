package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// A view added the way ARCHITECTURE.md says: its type (here, in the test)
// and one line that registers it. Nothing else in the root names it.
var modeEcho = registerView[echoView]("echo")

// echoView shows what it last read; its read is an echoMsg.
type echoView struct {
	c        *view.Common
	text     string
	inflight bool
}

// echoMsg is echoView's read, answered.
type echoMsg struct{ text string }

// echoKeys are echoView's keys: back, and the keys every view shares
// that it takes (pause, help, quit).
type echoKeys struct{ Leave, Pause, Help, Quit key.Binding }

func (k echoKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Leave, k.Pause, k.Help, k.Quit} }
func (k echoKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

func (e echoView) OnKey(msg tea.KeyPressMsg) (view.View, tea.Cmd, view.Intent) {
	if key.Matches(msg, e.c.Keys.Leave) {
		return e, nil, view.BackIntent{}
	}
	return e, nil, nil
}
func (e echoView) Render() string { return "echo: " + e.text }
func (e echoView) HintKeys() help.KeyMap {
	return echoKeys{Leave: e.c.Keys.Leave, Pause: e.c.Keys.Pause, Help: e.c.Keys.Help, Quit: e.c.Keys.Quit}
}
func (e echoView) Stale() bool                     { return false }
func (e echoView) Reload() (view.View, tea.Cmd)    { return e, nil }
func (e echoView) ReloadNow() (view.View, tea.Cmd) { return e, nil }
func (e echoView) Resize() (view.View, tea.Cmd)    { return e, nil }
func (e echoView) Receive(msg tea.Msg) (view.View, tea.Cmd, view.Intent, bool) {
	switch msg := msg.(type) {
	case echoMsg:
		e.text, e.inflight = msg.text, false
		return e, nil, view.FooterIntent{Note: "echo took " + msg.text}, true
	case view.DroppedMsg:
		if _, ok := msg.Msg.(echoMsg); ok {
			e.inflight = false
			return e, nil, nil, true
		}
	}
	return e, nil, nil, false
}

// Opened by an intent, a registered view is pushed over the table, takes
// its reads in the one way every view does (view.Receiver, its note in the
// footer as the table's), drops one sent before a pause, has its own ?
// title and keys, and esc goes back to the table.
func TestRegisteredView(t *testing.T) {
	m := loaded(t, 80, 24)
	next, _ := m.act(view.OpenIntent{View: echoView{c: m.c, text: "opened", inflight: true}}, nil)
	m = next.(Model)
	if m.topMode() != modeEcho || !strings.HasPrefix(screen(m), "echo: opened") {
		t.Fatalf("after OpenIntent: top mode %v, screen:\n%s", m.topMode(), screen(m))
	}
	m = send(t, m, echoMsg{text: "read"})
	if !strings.HasPrefix(screen(m), "echo: read") || !strings.Contains(screen(m), "echo took read") {
		t.Fatalf("the view did not take its read in, or its note is not in the footer:\n%s", screen(m))
	}
	// A read sent before a pause is dropped, and the view told so.
	m.setView(modeEcho, echoView{c: m.c, text: "read", inflight: true}) // its next read sent
	stale := view.ReadMsg{Pauses: m.c.Pauses, Msg: echoMsg{text: "stale"}}
	m = send(t, m, press("p"), stale)
	if got := m.viewAt(modeEcho).(echoView); got.text != "read" || got.inflight {
		t.Errorf("after a read dropped while paused: %+v, want text read, not in flight", got)
	}
	m = send(t, m, press("p"))
	h := send(t, m, press("?"))
	if first := strings.TrimRight(splitLines(screen(h))[0], " "); first != "kubectl backoff top — echo" {
		t.Errorf("help over the view: title %q, want its registered title", first)
	}
	if !strings.Contains(screen(h), "esc") {
		t.Errorf("help over the view does not list its keys:\n%s", screen(h))
	}
	m = send(t, m, press("esc"))
	if m.topMode() != modeTop {
		t.Errorf("esc in the view: top mode %v, want the table", m.topMode())
	}
}
