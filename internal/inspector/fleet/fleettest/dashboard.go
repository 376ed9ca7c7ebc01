// Package fleettest holds what the fleet view's tests share: the Grafana
// dashboard read once, in one shape, by the test that checks its queries
// against the fleet view's and by the two that run them against a real
// Prometheus (internal/cli's and the end-to-end tier's).
//
//	dash := fleettest.ReadDashboard(t, "../../config/grafana/kubectl-backoff-fleet.json")
//	for _, p := range dash.Panels {
//		for _, tg := range p.Targets {
//			_ = tg.Expr // a PromQL query the fleet view also runs
//		}
//	}
package fleettest

import (
	"encoding/json"
	"os"
	"testing"
)

// Dashboard is what the tests read of a Grafana dashboard: its panels'
// titles and their targets' queries.
type Dashboard struct {
	Title  string `json:"title"`
	Panels []struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

// ReadDashboard reads the dashboard at path, failing t when it cannot.
func ReadDashboard(t testing.TB, path string) Dashboard {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d Dashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}
