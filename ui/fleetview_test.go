package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// fixedFleet is a read of two clusters: east's outage controller the
// worst, with its worst keys; a controller name carrying an escape.
func fixedFleet() *fleet.Fleet {
	keys := func(backoff, failed, idle int) map[api.State]int {
		m := map[api.State]int{}
		for _, st := range api.States {
			m[st] = 0
		}
		m[api.StateBackoff], m[api.StateFailed], m[api.StateIdle] = backoff, failed, idle
		return m
	}
	three, zero := 3, 0
	f := &fleet.Fleet{At: t0, Server: "http://prometheus.example:9090", ClusterLabel: "cluster", Clusters: []string{"east", "west"}, Queries: 3,
		Rows: []fleet.Row{
			{Cluster: "east", Namespace: "demo", Controller: "outage", Keys: keys(40, 0, 10), OldestFailureSeconds: 3720, MaxFailures: 19, KeysAtCap: &three, ForgetsLastDay: 2,
				RetryDelays: &fleet.RetryDelays{Retries: 161, MeanSeconds: 123.4, Long: 12},
				WorstKeys: []fleet.WorstKey{
					{Key: "demo/outage-00007", State: api.StateBackoff, Failures: 19, RetryInSeconds: 610},
					{Key: "demo/outage-00002", State: api.StateBackoff, Failures: 18, RetryInSeconds: 95},
				}},
			{Cluster: "west", Namespace: "demo", Controller: "naive", Keys: keys(3, 0, 5), OldestFailureSeconds: 300, MaxFailures: 9, KeysAtCap: &zero},
			{Cluster: "west", Namespace: "cert-manager", Controller: "certificates\x1b[31m", Keys: keys(0, 2, 100), OldestFailureSeconds: 60, MaxFailures: 1},
			{Cluster: "east", Namespace: "demo", Controller: "wellbehaved", Keys: keys(0, 0, 12), KeysAtCap: &zero},
		}}
	return f
}

// fleetModel is the UI opened on the fleet view at w×h, its first read
// answered by read.
func fleetModel(t *testing.T, w, h int, opts view.FleetOptions) Model {
	t.Helper()
	m := newModel(context.Background(), view.Options{Clock: fixedClock, Refresh: 10 * time.Second, Fleet: &opts})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return send(t, m, m.first())
}

func fixedRead(context.Context) (*fleet.Fleet, error) { return fixedFleet(), nil }

func TestFleetGolden(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"120x40", 120, 40}} {
		t.Run(sz.name, func(t *testing.T) {
			m := fleetModel(t, sz.w, sz.h, view.FleetOptions{Read: fixedRead})
			golden.RequireEqual(t, screen(m))
		})
	}
}

// TestFleetKeepsLastReadOnError: a failed read says the server's words
// and keeps the last read on screen (dimmed, and said to be old).
func TestFleetKeepsLastReadOnError(t *testing.T) {
	fail := false
	read := func(ctx context.Context) (*fleet.Fleet, error) {
		if fail {
			return nil, &fleet.APIError{Status: 503, Type: "unavailable", Message: "store gateway 10.0.0.7:10901 is down"}
		}
		return fixedRead(ctx)
	}
	m := fleetModel(t, 120, 40, view.FleetOptions{Read: read})
	fail = true
	v, cmd := m.viewAt(modeFleet).ReloadNow()
	m.setView(modeFleet, v)
	m = send(t, m, cmd())
	got := screen(m)
	for _, want := range []string{"prometheus answered 503 (unavailable): store gateway 10.0.0.7:10901 is down", "showing the read of", "outage"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	// Text from the server is escaped: no raw ESC reaches the terminal.
	if strings.Contains(m.View().Content, "\x1b[31m") {
		t.Errorf("a controller's name reached the terminal unescaped")
	}
}

// TestFleetEnter: enter attaches through the cluster's context when one is
// known, else says the command to run.
func TestFleetEnter(t *testing.T) {
	var gotRow fleet.Row
	var gotCtx string
	opts := view.FleetOptions{Read: fixedRead,
		ContextFor: func(c string) (string, bool) { return "prod-" + c, c == "east" },
		Attach:     func(r fleet.Row, c string) { gotRow, gotCtx = r, c }}
	m := fleetModel(t, 120, 40, opts)
	next, cmd := m.Update(press("enter"))
	if e, a := "east/demo/outage", gotRow.ID(); e != a || gotCtx != "prod-east" {
		t.Errorf("attach: want %s through prod-east, got %s through %q", e, a, gotCtx)
	}
	if cmd == nil {
		t.Fatal("enter with a context: want the UI to quit for top")
	}
	m = send(t, next.(Model), press("down"))
	m = send(t, m, press("enter"))
	for _, want := range []string{"no kube context for cluster west", "kubectl backoff top --context CONTEXT -n demo", "--controller naive"} {
		if !strings.Contains(screen(m), want) {
			t.Errorf("no context for west: want %q on screen:\n%s", want, screen(m))
		}
	}
}

// TestFleetFilter: / types a filter over cluster/namespace/controller,
// applied as typed; esc restores the one before, enter keeps it.
func TestFleetFilter(t *testing.T) {
	m := fleetModel(t, 120, 40, view.FleetOptions{Read: fixedRead})
	m = send(t, m, press("/"), press("w"), press("e"), press("s"), press("t"))
	if got := screen(m); strings.Contains(got, "outage") || !strings.Contains(got, "naive") {
		t.Errorf("typing west: want west's rows only:\n%s", got)
	}
	typed := send(t, m, press("esc"))
	if got := screen(typed); !strings.Contains(got, "outage") {
		t.Errorf("esc: want every row back:\n%s", got)
	}
	kept := send(t, m, press("enter"))
	if got := screen(kept); strings.Contains(got, "outage") || !strings.Contains(got, "filter: west") {
		t.Errorf("enter: want the filter kept and shown:\n%s", got)
	}
}

// TestFleetSaysPartialAnswers: a Thanos partial response is said with the
// store's own words over the rows it did return.
func TestFleetSaysPartialAnswers(t *testing.T) {
	read := func(context.Context) (*fleet.Fleet, error) {
		f := fixedFleet()
		f.Warnings = []string{"partial response: store 10.0.0.7:10901 unavailable"}
		return f, nil
	}
	got := screen(fleetModel(t, 120, 40, view.FleetOptions{Read: read}))
	for _, want := range []string{"partial: partial response: store 10.0.0.7:10901 unavailable", "outage"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
}
