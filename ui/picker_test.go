package ui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// fixedPods are what discovery found, sorted as Resolve sorts them.
func fixedPods() []cluster.Pod {
	return []cluster.Pod{
		{Namespace: "demo", Name: "ctrl-0", Port: 8082, Ready: true, Phase: "Running"},
		{Namespace: "demo", Name: "ctrl-1", Port: 8082, Ready: true, Phase: "Running"},
		{Namespace: "payments", Name: "billing-controller-7d9f8c6b5-x2x9q", Port: 9090, Ready: false, Phase: "Running"},
		{Namespace: "platform", Name: "operator-manager-0", Port: 8082, Ready: true, Phase: "Running"},
	}
}

// fakeAttach records the pods it is asked for and answers with s or err.
type fakeAttach struct {
	asked []cluster.Pod
	s     *inspector.Session
	err   error
}

func (f *fakeAttach) attach(_ context.Context, p cluster.Pod) (*inspector.Session, *describe.ObjectReader, error) {
	f.asked = append(f.asked, p)
	return f.s, nil, f.err
}

// picking is the picker at w×h over fixedPods.
func picking(t *testing.T, w, h int, a *fakeAttach) Model {
	t.Helper()
	m := newModel(context.Background(), view.Options{Clock: fixedClock, Context: "kind-demo", Namespace: "all", Pods: fixedPods(), Attach: a.attach})
	return send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
}

// update is Update for a model that must stay a Model.
func update(t *testing.T, m Model, msg tea.Msg) (Model, tea.Cmd) {
	t.Helper()
	next, cmd := m.Update(msg)
	return next.(Model), cmd
}

func TestPickerNavigateAndAttach(t *testing.T) {
	a := &fakeAttach{s: inspector.NewSession(nil, nil)}
	m := picking(t, 120, 30, a)
	if m.view() != modePicker {
		t.Fatalf("state %v, want the picker", m.modes())
	}
	if cmd := m.Init(); cmd == nil {
		t.Fatal("Init returned no command")
	}
	m = send(t, m, press("j"), press("down"), press("j"), press("j"), press("k"))
	if got, want := m.pick().Selected().String(), "payments/billing-controller-7d9f8c6b5-x2x9q"; got != want {
		t.Fatalf("after j,down,j,j,k: selected %s, want %s", got, want)
	}
	m, cmd := update(t, m, press("enter"))
	if cmd == nil || m.pick().Attaching == nil {
		t.Fatalf("enter: cmd %v, attaching %v; want an attach under way", cmd, m.pick().Attaching)
	}
	if s := screen(m); !strings.Contains(s, "attaching to payments/billing-controller-7d9f8c6b5-x2x9q…") {
		t.Errorf("the screen does not say it is attaching:\n%s", s)
	}
	if _, again := update(t, m, press("enter")); again != nil {
		t.Errorf("a second enter while attaching returned a command")
	}
	msg, ok := cmd().(view.AttachedMsg)
	if !ok || msg.Err != nil || msg.Session != a.s {
		t.Fatalf("the command returned %+v, want the session attached", msg)
	}
	if len(a.asked) != 1 || a.asked[0] != fixedPods()[2] {
		t.Errorf("attach was asked for %v, want just %v", a.asked, fixedPods()[2])
	}
}

// An attach error is a status line; the picker stays up to pick again.
func TestPickerAttachError(t *testing.T) {
	a := &fakeAttach{err: errors.New("pods \"ctrl-1\" is forbidden")}
	m := picking(t, 120, 30, a)
	m, _ = update(t, m, press("down"))
	m, cmd := update(t, m, press("enter"))
	m = send(t, m, cmd())
	if m.view() != modePicker || m.pick().Attaching != nil {
		t.Fatalf("state %v, attaching %v: want the picker, idle", m.modes(), m.pick().Attaching)
	}
	want := `attach demo/ctrl-1: pods "ctrl-1" is forbidden`
	if !m.statusErr || m.status != want {
		t.Errorf("status %q (error %v), want the error %q", m.status, m.statusErr, want)
	}
	if s := screen(m); !strings.Contains(s, want) || !strings.Contains(s, "NAMESPACE") {
		t.Errorf("the screen does not show the picker and the error:\n%s", s)
	}
	if _, cmd := update(t, m, press("enter")); cmd == nil {
		t.Errorf("enter after a failed attach does not try again")
	}
}

// Once attached, the top view shows the pod's keys: the message starts the
// refreshes, and the session is the UI's to close.
func TestPickerAttachedShowsTop(t *testing.T) {
	f := newFixture(t, 5, false)
	var closed atomic.Bool
	s := inspector.NewSession(f.session(t).Endpoints(), func() { closed.Store(true) })
	m := picking(t, 120, 30, &fakeAttach{s: s})
	m, cmd := update(t, m, press("enter"))
	m, cmd = update(t, m, cmd())
	if m.view() != modeTop || m.c.Conn.Session != s || m.c.Conn.Namespace != "demo" {
		t.Fatalf("state %v, session %p (want %p), ns %q: want the top view on demo", m.modes(), m.c.Conn.Session, s, m.c.Conn.Namespace)
	}
	if cmd == nil || !m.tbl().Inflight {
		t.Fatalf("no refresh under way after attaching")
	}
	if !strings.Contains(screen(m), "attached to demo/ctrl-0") {
		t.Errorf("the status does not say what was attached:\n%s", screen(m))
	}
	m, cmd = update(t, m, firstOf[view.ReadMsg](t, cmd))
	if cmd != nil && m.tbl().Inflight {
		// An endpoint without the retrying order: the view sorts by the one before it.
		m = send(t, m, firstOf[view.ReadMsg](t, cmd))
	}
	if got := screen(m); !strings.Contains(got, "demo/widget-000004") {
		t.Errorf("the top view does not show the pod's keys:\n%s", got)
	}
	if closed.Load() {
		t.Fatalf("the session was closed while in use")
	}
	m.c.Conn.Owned.CloseAll()
	if !closed.Load() {
		t.Errorf("the session was not closed when the UI exited")
	}
}

// firstOf runs the commands of cmd (a batch) and returns the first message
// of type T. The others (ticks) are left running: they end on their own.
func firstOf[T tea.Msg](t *testing.T, cmd tea.Cmd) T {
	t.Helper()
	cmds := []tea.Cmd{cmd}
	if b, ok := cmd().(tea.BatchMsg); ok {
		cmds = b
	}
	got := make(chan tea.Msg, len(cmds))
	for _, c := range cmds {
		if c != nil {
			go func() { got <- c() }()
		}
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case msg := <-got:
			if m, ok := msg.(T); ok {
				return m
			}
		case <-deadline:
			var zero T
			t.Fatalf("no %T among the commands", zero)
			return zero
		}
	}
}

// The filter narrows the list as it is typed; esc clears it, then quits.
func TestPickerFilterAndQuit(t *testing.T) {
	m := picking(t, 80, 24, &fakeAttach{})
	m = send(t, m, press("/"))
	for _, r := range "ctrl" {
		m = send(t, m, press(string(r)))
	}
	if e, a := 2, len(m.pick().Shown); e != a {
		t.Fatalf("typing ctrl: want %d pods shown, got %d", e, a)
	}
	m = send(t, m, press("enter"), press("j"))
	if m.pick().Filter.State != widget.FilterApplied || m.pick().Selected().Name != "ctrl-1" {
		t.Errorf("after enter, j: state %v, selected %v", m.pick().Filter.State, m.pick().Selected())
	}
	if s := screen(m); !strings.Contains(s, "filter ctrl · 2 of 4 pods") || strings.Contains(s, "payments") {
		t.Errorf("the screen does not show the filtered list:\n%s", s)
	}
	m, cmd := update(t, m, press("esc"))
	if cmd != nil || m.pick().Filter.State != widget.Unfiltered || len(m.pick().Shown) != 4 {
		t.Fatalf("esc with a filter: cmd %v, state %v, %d shown; want the filter cleared", cmd, m.pick().Filter.State, len(m.pick().Shown))
	}
	for _, k := range []string{"esc", "q"} {
		if _, cmd := update(t, m, press(k)); cmd == nil {
			t.Errorf("%s: no command, want quit", k)
		} else if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s: want quit", k)
		}
	}
	m = send(t, m, press("/"), press("~"), press("["))
	if len(m.pick().Shown) != 4 {
		t.Errorf("a regex that does not compile changed the list: %d shown", len(m.pick().Shown))
	}
}

// Pick a pod, see its keys; quitting closes the session the UI opened.
func TestJourneyPickPod(t *testing.T) {
	f := newFixture(t, 5, false)
	var closed atomic.Bool
	t.Cleanup(func() { // runs after the journey's own cleanup has quit the UI
		if !closed.Load() {
			t.Error("the picked pod's session was not closed at exit")
		}
	})
	attach := func(_ context.Context, p cluster.Pod) (*inspector.Session, *describe.ObjectReader, error) {
		if p.Name != "ctrl-1" {
			return nil, nil, errors.New("picked the wrong pod: " + p.String())
		}
		return inspector.NewSession(f.session(t).Endpoints(), func() { closed.Store(true) }), nil, nil
	}
	j := startJourneyWith(t, view.Options{Refresh: 100 * time.Millisecond, Pods: fixedPods(), Attach: attach})
	j.waitFor("pick a pod", "payments", "billing-controller-7d9f8c6b5-x2x9q")
	j.key("j")
	j.waitLine("› ", "ctrl-1")
	j.key("enter")
	j.waitFor("ns demo", "demo/widget-000004", "● connected")
}
