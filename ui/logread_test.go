package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestHeaderSaysWhatTheLogRead: for a log source, the first header line
// says how many lines were read, the records by dialect, the failure lines
// without a time and those that could not be read, in the order of the
// one log-read note (explain.ReadFacts) that `get --from-logs` prints too.
func TestHeaderSaysWhatTheLogRead(t *testing.T) {
	m := newModel(context.Background(), view.Options{Clock: fixedClock})
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 30})
	ov := fixedOverview()
	ov.Replicas[0].Source = &api.ListSource{Kind: api.SourceLogs}
	ov.Replicas[0].Source.Read = &api.LogRead{Lines: 1234, Recognised: map[string]int{"Flux (JSON)": 3, "controller-runtime (JSON)": 120},
		Unreadable: 4, Example: `{"msg":"Reconciler error"}`, Untimed: 2}
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	first, _, _ := strings.Cut(screen(m), "\n")
	want := "log 1,234 lines, Flux (JSON) 3, controller-runtime (JSON) 120, 2 without a time, 4 failure lines unreadable"
	if !strings.Contains(first, want) {
		t.Errorf("first header line = %q, want it to contain %q", first, want)
	}

	ov.Replicas[0].Source = &api.ListSource{Kind: api.SourceLogs}
	ov.Replicas[0].Source.Read = &api.LogRead{Lines: 10}
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	if first, _, _ := strings.Cut(screen(m), "\n"); !strings.Contains(first, "log 10 lines, none recognised") {
		t.Errorf("first header line = %q, want it to say none was recognised", first)
	}

	// A kubelet's log path is long: it gives up its middle, not the end of
	// what the read understood (it cut "none recognised" to "none recogn…").
	ov.Replicas[0].Endpoint = "logs: /var/log/pods/widget-system_widget-operator-7d9f8b6c5d-x2k4p_0b6e4a1c-5d2f-4e8a-9c3b-1f7a2d6e8b90/manager/0.log"
	ov.Replicas[0].Source.Read = &api.LogRead{Lines: 10, Unreadable: 3}
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
	first, _, _ = strings.Cut(screen(m), "\n")
	if !strings.Contains(first, "log 10 lines, none recognised, 3 failure lines unreadable") || !strings.Contains(first, "…") || !strings.Contains(first, "/manager/0.log") {
		t.Errorf("first header line = %q, want the path cut in its middle, its file name and the whole read note kept", first)
	}
}

// TestSavedLogSaysWhereItsTimeStops: top over a saved log (logWorld, as
// `top --from-logs FILE` reads it) judges it as of its last line, 10:00:30:
// the header says the log ends then and how long ago, first, instead of
// "updated <1s ago", which read as live while the countdowns never moved;
// the error groups say it too; and the key's detail counts its next
// retry from that line (Flux's "next try in 5m0s" at 10:00:10: 10:05:10,
// 4m40s after 10:00:30). The same log read live says none of it.
func TestSavedLogSaysWhereItsTimeStops(t *testing.T) {
	m := logsTop(t, 120, 30)
	first, _, _ := strings.Cut(screen(m), "\n")
	if want := "backoff top · log ends 10:00:30 (5m55s ago) · NEXT counts from it · logs: widgets.log"; !strings.HasPrefix(first, want) || strings.Contains(first, "updated") {
		t.Errorf("first header line = %q, want it to start %q and not say updated", first, want)
	}
	g := send(t, m, press("g"))
	g = send(t, g, g.refreshGroups()())
	if !strings.Contains(screen(g), "log ends 10:00:30 (5m55s ago)") {
		t.Errorf("the error groups do not say where the log ends:\n%s", screen(g))
	}

	m.pushView(modeDetail, view.Detail{C: m.c, Controller: "kustomization", Key: "flux-system/apps"})
	m = send(t, m, view.DetailCmd(context.Background(), m.c.Conn.Session, nil, fixedClock, "kustomization", "flux-system/apps")())
	if want := "Next retry at 10:05:10 (4m40s after the log's last line)"; !strings.Contains(strings.Join(strings.Fields(screen(m)), " "), want) {
		t.Errorf("detail:\n%s\nwant it to say %q", screen(m), want)
	}

	live := logs.NewStore(logs.Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0)})
	line := `{"level":"error","ts":"2025-06-01T10:06:20Z","msg":"Reconciler error","controller":"widgets","namespace":"demo","name":"w1","error":"boom"}`
	if _, _, err := live.Read(context.Background(), strings.NewReader(line+"\n")); err != nil {
		t.Fatal(err)
	}
	l := newModel(context.Background(), view.Options{Session: inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: stdin", Handler: live.Handler()}), Clock: fixedClock})
	l = send(t, l, tea.WindowSizeMsg{Width: 120, Height: 30})
	l = send(t, l, l.refreshTop()())
	if first, _, _ := strings.Cut(screen(l), "\n"); strings.Contains(first, "log ends") || !strings.Contains(first, "updated") {
		t.Errorf("a live log's first header line = %q, want it updated, with no end", first)
	}
}
