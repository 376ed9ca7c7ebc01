package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// readOnlyModel is the top view at w×h over a source whose controllers
// v1/controllers reports read-only, and whose list says src (a log's, a
// snapshot's; nil for an endpoint).
func readOnlyModel(t *testing.T, w, h int, opts view.Options, src *api.ListSource) Model {
	t.Helper()
	ov := fixedOverview()
	for i := range ov.Controllers {
		ov.Controllers[i].Capabilities = api.Capabilities{ReadOnly: true}
	}
	ov.Source = src
	opts.Clock = fixedClock
	m := newModel(context.Background(), opts)
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fixedPage(m.tbl().Rows()), FetchedAt: t0})
}

// f, F, r and R on a read-only source say why nothing happens and what to
// do instead, from the capabilities and the source, in the top, detail and
// group views (issue #23: `top --file` ignored f and F in silence).
func TestReadOnlySourcesSayWhy(t *testing.T) {
	tests := []struct {
		name string
		opts view.Options
		src  *api.ListSource
		want []string
	}{
		{"snapshot file", view.Options{}, &api.ListSource{SnapshotAt: t0.Add(-time.Hour)}, []string{"read-only: a snapshot (taken at 2025-06-01 09:06:25Z) cannot forget or retry", "attach to the controller"}},
		{"log", view.Options{}, &api.ListSource{Kind: api.SourceLogs}, []string{"read-only: a log cannot forget or retry", "kubectl backoff kick TARGET --from-logs "}},
		{"read-only endpoint", view.Options{}, nil, []string{"read-only: the endpoint refuses forget and retry"}},
		// A saved log's keys are kicked through the file (kick reads it for
		// their kind), not a TARGET its reader has no way to name.
		{"log file", view.Options{LogAt: explain.Session{LogFile: "saved.log"}}, &api.ListSource{Kind: api.SourceLogs},
			[]string{"read-only: a log cannot forget or retry", "kubectl backoff kick --from-logs saved.log "}},
	}
	for _, tt := range tests {
		for _, sz := range [][2]int{{60, 20}, {80, 24}} {
			for _, k := range []string{"f", "F", "r", "R"} {
				m := send(t, readOnlyModel(t, sz[0], sz[1], tt.opts, tt.src), press(k))
				if m.dialog() != nil {
					t.Fatalf("%s: %s opened a confirmation", tt.name, k)
				}
				said := strings.Join(strings.Fields(screen(m)), " ")
				for _, w := range tt.want[:1] {
					if !strings.Contains(said, w) {
						t.Errorf("%s at %dx%d: %s says nothing of %q:\n%s", tt.name, sz[0], sz[1], k, w, screen(m))
					}
				}
				if m.status == "" || !m.statusErr {
					t.Errorf("%s: %s left no error status", tt.name, k)
				}
				for _, w := range tt.want {
					if !strings.Contains(m.status, w) {
						t.Errorf("%s: %s says %q, want %q in it", tt.name, k, m.status, w)
					}
				}
			}
		}
	}
	// The detail and group views answer too.
	m := readOnlyModel(t, 80, 24, view.Options{}, &api.ListSource{Kind: api.SourceLogs})
	d := m
	d.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	d = send(t, d, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: fixedDetail(), FetchedAt: t0}, press("f"))
	if !strings.Contains(d.status, "a log cannot forget") {
		t.Errorf("detail view: f says %q", d.status)
	}
	// The command to run instead names the key at hand, as it is copied.
	if want := "kubectl backoff kick TARGET --from-logs " + fixedDetail().Key.Key.Key + " retries it now"; !strings.Contains(d.status, want) {
		t.Errorf("detail view: f says %q, want %q in it", d.status, want)
	}
	g := send(t, m, press("g"), fixedGroups(), press("F"))
	if !strings.Contains(g.status, "a log cannot forget") || !strings.Contains(g.status, "--from-logs KEY retries a key now") {
		t.Errorf("group view: F says %q (a group has no one key: KEY stays a word to fill in)", g.status)
	}
}
