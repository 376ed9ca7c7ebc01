package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// fleetOverview is fixedOverview seen cluster-wide: the demo's controllers
// on a leader and a standby of one deployment, a second workload's pod, and
// unreachable ones of further workloads.
func fleetOverview(unreachable int) *inspector.Overview {
	ov := fixedOverview()
	connected := func(ep string) cluster.ConnState {
		return cluster.ConnState{Phase: cluster.PhaseConnected, Pod: ep, LocalAddr: "127.0.0.1:40123"}
	}
	ov.Replicas = []inspector.Replica{
		{Endpoint: "demo/ctrl-0", Workload: "demo/deploy/ctrl", ServerTime: t0, Conn: connected("demo/ctrl-0")},
		{Endpoint: "demo/ctrl-1", Workload: "demo/deploy/ctrl", ServerTime: t0, Standby: true, Conn: connected("demo/ctrl-1")},
		{Endpoint: "tools/gadget-0", Workload: "tools/sts/gadget", ServerTime: t0, Conn: connected("tools/gadget-0")},
	}
	for i := range unreachable {
		ep := fmt.Sprintf("team-%d/ctrl-7c9d-x%d", i, i)
		ov.Replicas = append(ov.Replicas, inspector.Replica{
			Endpoint: ep, Workload: fmt.Sprintf("team-%d/deploy/ctrl", i),
			Err:  errors.New(`port-forward ` + ep + `: pods/portforward is forbidden: User "alice" cannot create resource "pods/portforward"`),
			Conn: cluster.ConnState{Phase: cluster.PhaseFailed, Pod: ep, Attempts: 1, LastError: `pods/portforward is forbidden: User "alice" cannot create resource "pods/portforward"`},
		})
	}
	return ov
}

// fleetPage is fixedPage with each key on its pod.
func fleetPage(n int) *inspector.KeyList {
	l := fixedPage(n)
	for i := range l.Items {
		l.Items[i].Pod = "demo/ctrl-0"
		if i%4 == 3 {
			l.Items[i].Pod = "tools/gadget-0"
		}
	}
	return l
}

// fleetLoaded is the top view at w×h after one refresh of a fleet.
func fleetLoaded(t *testing.T, w, h, unreachable int) Model {
	t.Helper()
	m := newModel(context.Background(), view.Options{Clock: fixedClock, Context: "kind-demo", Namespace: "all"})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	ov := fleetOverview(unreachable)
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, FetchedAt: t0})
	return send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fleetPage(m.tbl().Rows()), FetchedAt: t0})
}

func TestGoldenFleet(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{120, 30}, {80, 24}} {
		t.Run(fmt.Sprintf("top_%dx%d", sz.w, sz.h), func(t *testing.T) {
			golden.RequireEqual(t, screen(fleetLoaded(t, sz.w, sz.h, 1)))
		})
	}
}

// TestFleetHeader: the header counts the pods and gives each unreachable
// one a row (name, why), at most maxUnreachableRows, which the table's rows
// make room for; the keys' pods are a column.
func TestFleetHeader(t *testing.T) {
	tests := []struct {
		unreachable int
		wantRows    int // header rows for unreachable pods
		wantSummary string
	}{
		{0, 0, "workloads 2 · pods 3: 2 leading, 1 standby"},
		{1, 1, "workloads 3 · pods 4: 2 leading, 1 standby, 1 unreachable"},
		{5, view.MaxUnreachableRows, "workloads 7 · pods 8: 2 leading, 1 standby, 5 unreachable"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.unreachable), func(t *testing.T) {
			m := fleetLoaded(t, 160, 40, tt.unreachable)
			lines := strings.Split(screen(m), "\n")
			if !strings.Contains(lines[0], tt.wantSummary) {
				t.Errorf("attached line = %q, want it to contain %q", lines[0], tt.wantSummary)
			}
			rows := 0
			for _, l := range lines[1 : 1+tt.wantRows+1] {
				if strings.HasPrefix(l, "  team-") || strings.HasPrefix(l, "  ✗ ") {
					rows++
				}
			}
			if rows != tt.wantRows {
				t.Errorf("unreachable rows = %d, want %d:\n%s", rows, tt.wantRows, strings.Join(lines[:8], "\n"))
			}
			if tt.unreachable > 0 && !strings.Contains(lines[1], "team-0/ctrl-7c9d-x0") || tt.unreachable > 0 && !strings.Contains(lines[1], "forbidden") {
				t.Errorf("first unreachable row = %q, want the pod and why", lines[1])
			}
			if tt.unreachable > view.MaxUnreachableRows && !strings.Contains(lines[view.MaxUnreachableRows], fmt.Sprintf("%d more pods unreachable", tt.unreachable-view.MaxUnreachableRows+1)) {
				t.Errorf("last unreachable row = %q, want the rest counted", lines[view.MaxUnreachableRows])
			}
			if got, want := m.tbl().Rows(), 40-view.HeaderLines-tt.wantRows-2-m.c.StatusLines; got != want {
				t.Errorf("table rows = %d, want %d", got, want)
			}
			table := lines[view.HeaderLines+tt.wantRows]
			if !strings.Contains(table, "NAMESPACE/POD") {
				t.Errorf("table header = %q, want a NAMESPACE/POD column", table)
			}
		})
	}
}

// TestFleetOneWorkload: replicas of one workload are not a fleet: the
// header names each, as before, and no pod column shows at 120 columns.
func TestFleetOneWorkload(t *testing.T) {
	m := newModel(context.Background(), view.Options{Clock: fixedClock})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	ov := fleetOverview(0)
	ov.Replicas = ov.Replicas[:2]
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fleetPage(m.tbl().Rows()), FetchedAt: t0})
	out := screen(m)
	if !strings.Contains(out, "demo/ctrl-1 standby") || strings.Contains(out, "POD") || strings.Contains(out, "workloads") {
		t.Errorf("one workload's replicas: want each named and no POD column:\n%s", out)
	}
}
