package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// logWorld is a log read by log mode, as `top --from-logs FILE` serves it:
// controller-runtime's "Reconciler error" lines (zap JSON) of widgets — 5
// keys that failed once at 10:00:00 and were quiet for 30s after their 5ms
// retry (unknown), a terminal error (failed), one failing at 10:00:30, the
// log's last line and so its now (backoff) — and two of Flux's
// kustomize-controller, whose lines state the next try (backoff): 9 keys.
func logWorld(t *testing.T) *logs.Store {
	t.Helper()
	var log strings.Builder
	line := func(at, controller, key, msg, err string) {
		ns, name, _ := strings.Cut(key, "/")
		b, _ := json.Marshal(map[string]any{"level": "error", "ts": "2025-06-01T10:00:" + at + ".000Z", "msg": msg,
			"controller": controller, "namespace": ns, "name": name, "error": err})
		log.Write(append(b, '\n'))
	}
	refused := "dial tcp 10.0.0.7:443: connect: connection refused"
	for i := range 5 {
		line("00", "widgets", fmt.Sprintf("demo/quiet-%d", i), "Reconciler error", refused)
	}
	line("05", "widgets", "demo/bad", "Reconciler error", "terminal error: spec.replicas must be positive")
	line("10", "kustomization", "flux-system/apps", "Reconciliation failed after 21ms, next try in 5m0s", "kustomize build failed: kustomization.yaml is empty")
	line("20", "kustomization", "flux-system/infra", "Reconciliation failed after 18ms, next try in 5m0s", "kustomize build failed: kustomization.yaml is empty")
	line("30", "widgets", "demo/last", "Reconciler error", refused)
	s := logs.NewStore(logs.Options{})
	if _, _, err := s.Read(context.Background(), strings.NewReader(log.String())); err != nil {
		t.Fatal(err)
	}
	return s
}

// logsTop is top over logWorld at w×h after one refresh.
func logsTop(t *testing.T, w, h int) Model {
	t.Helper()
	m := newModel(context.Background(), view.Options{Session: inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: widgets.log", Handler: logWorld(t).Handler()}), Clock: fixedClock})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return opened(t, m)
}

// countLabel is one state's count on the header's counts line: "7 unknown 5".
var countLabel = regexp.MustCompile(`(\d) (\w+) (\d+)`)

// TestLogCountsAddUp: on a log, the header counts the unknown keys as it
// counts the other states, under their own toggle (7): the counts add up to
// the 9 tracked keys of both controllers, and 7 shows only the 5 unknown
// ones. The counts were read off logWorld's lines.
func TestLogCountsAddUp(t *testing.T) {
	want := map[api.State]int{api.StateBackoff: 3, api.StateFailed: 1, api.StateUnknown: 5}
	for _, sz := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"60x20", 60, 20}} {
		t.Run(sz.name, func(t *testing.T) {
			m := logsTop(t, sz.w, sz.h)
			if m.tbl().Err != nil {
				t.Fatalf("refresh: %v", m.tbl().Err)
			}
			scr := screen(m)
			counts := splitLines(scr)[1]
			sum, seen := 0, map[string]bool{}
			for _, c := range countLabel.FindAllStringSubmatch(counts, -1) {
				n, _ := strconv.Atoi(c[3])
				sum += n
				seen[c[2]] = true
				st := api.State(c[2])
				if c[2] == view.ShortStates[api.StateScheduled] {
					st = api.StateScheduled
				}
				if c[2] == view.ShortStates[api.StateUnknown] {
					st = api.StateUnknown
				}
				if n != want[st] {
					t.Errorf("the header says %s %d, want %d: %q", c[2], n, want[st], counts)
				}
			}
			if !seen["unknown"] && !seen[view.ShortStates[api.StateUnknown]] || !strings.Contains(counts, "7 unkn") {
				t.Errorf("the counts line %q does not show unknown under 7", counts)
			}
			if sum != 9 {
				t.Errorf("the counts on %q add up to %d, want the 9 tracked keys", counts, sum)
			}
			golden.RequireEqual(t, scr)

			// 7 shows only the unknown keys, and says so.
			m = send(t, m, press("7"))
			if got := m.tbl().StateList(); len(got) != 1 || got[0] != api.StateUnknown {
				t.Fatalf("7 toggled %v on, want unknown", got)
			}
			m = send(t, m, m.refreshTop()())
			if p := m.tbl().Page; p == nil || p.Matched != 5 {
				t.Fatalf("with 7 on the page is %+v, want the 5 unknown keys", p)
			}
			for _, k := range m.tbl().Page.Items {
				if k.State != api.StateUnknown {
					t.Errorf("with 7 on, %s (%s) is shown", k.Key.Key, k.State)
				}
			}
			if !strings.Contains(screen(m), "states unknown") {
				t.Errorf("the query line does not say states unknown:\n%s", screen(m))
			}
		})
	}
}

// TestLiveSourceHasSixToggles: an endpoint's keys are never unknown: its
// header and help keep the six states, and 7 toggles nothing.
func TestLiveSourceHasSixToggles(t *testing.T) {
	m := loaded(t, 120, 30)
	if strings.Contains(screen(m), "unknown") {
		t.Errorf("an endpoint's header shows unknown:\n%s", screen(m))
	}
	h := send(t, m, press("?"))
	if help := ansi.Strip(strings.Join(h.hlp().Lines(), "\n")); !strings.Contains(help, "States (1-6 ") || strings.Contains(help, " unknown ") {
		t.Errorf("an endpoint's help does not name states 1-6 alone:\n%s", help)
	}
	if m = send(t, m, press("7")); len(m.tbl().StateList()) != 0 {
		t.Errorf("7 toggled %v on an endpoint", m.tbl().StateList())
	}
}

// TestLogHelpNamesUnknown: on a log the help lists 1-7, unknown the 7th.
func TestLogHelpNamesUnknown(t *testing.T) {
	m := send(t, logsTop(t, 120, 40), press("?"))
	help := ansi.Strip(strings.Join(m.hlp().Lines(), "\n"))
	if !strings.Contains(help, "States (1-7 ") || !regexp.MustCompile(`(?m)^  7 unknown +log only`).MatchString(help) {
		t.Errorf("a log's help does not list unknown as 7:\n%s", help)
	}
}

// countThenToggle is a state's count one space before the next state's
// toggle key: "backoff 3 2 scheduled 0" reads as backoff with counts 3 and 2.
var countThenToggle = regexp.MustCompile(`\d [1-7] \pL`)

// TestCountsLineSeparatesStates: on a log's seven states, at every width
// from 40 to 120 columns, a count and the next state's toggle key are never
// one space apart (80 columns showed "1 backoff 3 2 scheduled 0 3 queued 0").
func TestCountsLineSeparatesStates(t *testing.T) {
	for w := 40; w <= 120; w += 4 {
		m := logsTop(t, w, 24)
		if counts := splitLines(screen(m))[1]; countThenToggle.MatchString(counts) {
			t.Errorf("%d columns: %q runs a count into the next toggle", w, counts)
		}
	}
}
