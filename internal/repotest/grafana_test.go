package repotest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet/fleettest"
)

// dashboardFile is the Grafana dashboard over the probes' series.
var dashboardFile = filepath.Join(configDir, "grafana", "kubectl-backoff-fleet.json")

// TestDashboardQueriesAreTheFleetViews: every panel's query is one the
// fleet view runs (fleet.Queries, with the default cluster label), so the
// dashboard and `kubectl backoff fleet` cannot tell two stories; the
// end-to-end fleet test runs each against a real Prometheus.
func TestDashboardQueriesAreTheFleetViews(t *testing.T) {
	d := fleettest.ReadDashboard(t, dashboardFile)
	var ours []string
	for _, p := range fleet.Queries("cluster") {
		ours = append(ours, p.Query)
	}
	if len(d.Panels) == 0 {
		t.Fatalf("%s has no panels", dashboardFile)
	}
	used := map[string]bool{}
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			if !slices.Contains(ours, tg.Expr) {
				t.Errorf("panel %q queries what the fleet view does not:\n%s", p.Title, tg.Expr)
			}
			used[tg.Expr] = true
		}
	}
	for _, q := range ours {
		if !used[q] {
			t.Errorf("no panel shows the fleet view's query:\n%s", q)
		}
	}
}
