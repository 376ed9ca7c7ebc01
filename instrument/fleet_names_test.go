package instrument

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
)

// TestFleetQueriesNameExportedSeries: the fleet view spells the series
// again (the client side never links instrument); every name its queries
// read is one the probe exports.
func TestFleetQueriesNameExportedSeries(t *testing.T) {
	for _, p := range fleet.Queries("cluster") {
		found := unexportedSeries(p.Query)
		if found == nil {
			t.Errorf("panel %s names no series", p.Name)
		}
		for s, ok := range found {
			if !ok {
				t.Errorf("panel %s reads %s, which the probe does not export", p.Name, s)
			}
		}
	}
}
