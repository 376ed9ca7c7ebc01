package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// send runs msg through Update and returns the new model; commands are
// dropped: golden tests feed the messages the commands would return.
func send(t *testing.T, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	for _, msg := range msgs {
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	return m
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "ctrl+r":
		return tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// loaded is the top view at w×h after one refresh of the fixed dataset.
func loaded(t *testing.T, w, h int) Model {
	t.Helper()
	m := newModel(context.Background(), view.Options{Clock: fixedClock, Context: "kind-demo", Namespace: "demo"})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
}

func screen(m Model) string { return ansi.Strip(m.View().Content) }

func TestGolden(t *testing.T) {
	sizes := []struct {
		name string
		w, h int
	}{{"120x40", 120, 40}, {"120x30", 120, 30}, {"80x24", 80, 24}, {"60x20", 60, 20}}
	for _, sz := range sizes {
		t.Run("for_"+sz.name, func(t *testing.T) {
			f := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: newForCluster().list, AllNamespaces: true}})
			f = send(t, f, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			f = runFor(t, f, f.refreshFor())
			golden.RequireEqual(t, screen(f))
			t.Run("answer", func(t *testing.T) { golden.RequireEqual(t, screen(send(t, f, press("enter")))) })
		})
		t.Run("top_"+sz.name, func(t *testing.T) {
			golden.RequireEqual(t, screen(loaded(t, sz.w, sz.h)))
		})
		t.Run("detail_"+sz.name, func(t *testing.T) {
			m := loaded(t, sz.w, sz.h)
			m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
			m = send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: fixedDetail(), FetchedAt: t0})
			golden.RequireEqual(t, screen(m))
		})
		t.Run("group_"+sz.name, func(t *testing.T) {
			m := send(t, loaded(t, sz.w, sz.h), press("g"), fixedGroups())
			golden.RequireEqual(t, screen(m))
		})
		t.Run("help_"+sz.name, func(t *testing.T) {
			golden.RequireEqual(t, screen(send(t, loaded(t, sz.w, sz.h), press("?"))))
		})
		t.Run("picker_"+sz.name, func(t *testing.T) {
			golden.RequireEqual(t, screen(send(t, picking(t, sz.w, sz.h, &fakeAttach{}), press("j"))))
		})
		t.Run("confirm_"+sz.name, func(t *testing.T) {
			m := send(t, loaded(t, sz.w, sz.h), press("down"), press("r"))
			golden.RequireEqual(t, screen(m))
		})
		t.Run("forget_"+sz.name, func(t *testing.T) {
			m := send(t, loaded(t, sz.w, sz.h), press("down"), press("f"))
			golden.RequireEqual(t, screen(m))
		})
		// Paused 4s after the last refresh: the mark stays on screen beside
		// "updated 4s ago", at every width (issue #23: it was cut at 60).
		t.Run("paused_"+sz.name, func(t *testing.T) {
			m := send(t, loaded(t, sz.w, sz.h), press("p"))
			m.c.Opts.Clock = func() time.Time { return t0.Add(4 * time.Second) }
			golden.RequireEqual(t, screen(m))
		})
	}
}

// Every line of every view fits the terminal, at the smallest size too.
func TestViewsFitTheTerminal(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 30}, {120, 40}, {200, 50}, {60, 20}, {60, 12}} {
		m := loaded(t, sz[0], sz[1])
		views := map[string]Model{"top": m, "help": send(t, m, press("?")), "group": send(t, m, press("g"), fixedGroups()),
			"picker": picking(t, sz[0], sz[1], &fakeAttach{})}
		d := m
		d.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
		views["detail"] = send(t, d, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: fixedDetail(), FetchedAt: t0})
		f := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: newForCluster().list, AllNamespaces: true}})
		f = send(t, f, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		f = runFor(t, f, f.refreshFor())
		views["for"], views["for-answer"] = f, send(t, f, press("enter"))
		for name, v := range views {
			lines := splitLines(screen(v))
			if len(lines) != sz[1] {
				t.Errorf("%s at %dx%d: %d lines, want %d", name, sz[0], sz[1], len(lines), sz[1])
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Errorf("%s at %dx%d: line %d is %d wide: %q", name, sz[0], sz[1], i, w, l)
				}
			}
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
