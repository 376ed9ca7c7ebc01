package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A controller read off its log whose keys back off together on a
// transient error (the demo's outage, `describe --from-logs demo.log
// --controller outage`) is not told to run `forget … --all`: forget refuses
// --from-logs (a log cannot reach the queue). It is told to kick the keys,
// named, as a key's own advice does; an endpoint's keeps forget.
func TestOutageAdviceFromALogKicks(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 43, 16, 0, time.UTC)
	c := api.Controller{Name: "outage", Active: true, Keys: 100, Counts: map[api.State]int{api.StateBackoff: 100}}
	groups := []api.ErrorGroup{{Controller: "outage", Count: 100, Class: api.ClassTransient, FirstSeen: now.Add(-4 * time.Second), LastSeen: now,
		Message: "sync with inventory API: 503 Service Unavailable", Examples: []string{"demo/outage-00000", "demo/outage-00001", "demo/outage-00002", "demo/outage-00003"}}}
	advice := func(src *api.ListSource) string {
		d := explain.DiagnoseController(c, src, groups, now)
		if d.Situation != explain.SituationOutage || len(d.Findings) == 0 {
			t.Fatalf("diagnosis %+v: want an outage with advice", d)
		}
		return d.Findings[0].Message
	}
	logged := advice(&api.ListSource{Kind: api.SourceLogs})
	if strings.Contains(logged, "backoff forget") || !strings.Contains(logged, "`kubectl backoff kick TARGET --from-logs demo/outage-00000 demo/outage-00001 demo/outage-00002`") {
		t.Errorf("from a log: %s\nwant kick of the group's keys, not forget", logged)
	}
	if endpoint := advice(nil); !strings.Contains(endpoint, "`kubectl backoff forget --controller outage --all --state backoff --requeue --spread 1m`") {
		t.Errorf("from an endpoint: %s\nwant forget --all", endpoint)
	}
}
