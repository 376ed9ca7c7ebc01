package cli_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
)

// TestFleetClusterFromExternalLabels: one cluster's Prometheus, its
// cluster named only in its global.external_labels, as its docs advise,
// and read directly. Prometheus adds external labels to what leaves it
// (federation, remote write, alerts, a Thanos sidecar), not to its own
// query answers: every row's CLUSTER was "-". fleet reads the label from
// the server's configuration (/api/v1/status/config) and says so.
func TestFleetClusterFromExternalLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Prometheus and a demo")
	}
	d := startDemo(t, 20)
	prom := startPrometheusExternal(t, time.Second, map[string]string{"cluster": "prod-east"},
		scrapeTarget{addr: d.Addr().String(), labels: map[string]string{"namespace": "demo"}})
	var f fleet.Fleet
	pollUntil(t, 60*time.Second, "fleet to show the demo's controllers", func() (bool, string) {
		var err error
		if f, err = fleetJSON(t, prom); err != nil {
			return false, err.Error()
		}
		return len(f.Rows) == 6, fmt.Sprintf("%d rows", len(f.Rows))
	})
	if !slices.Equal(f.Clusters, []string{"prod-east"}) || f.ClusterFrom != fleet.ClusterFromExternalLabels {
		t.Errorf("clusters %q from %q; want [prod-east] from the server's external_labels", f.Clusters, f.ClusterFrom)
	}
	for _, r := range f.Rows {
		if r.Cluster != "prod-east" {
			t.Errorf("row %s: cluster %q, want prod-east", r.ID(), r.Cluster)
		}
	}
}
