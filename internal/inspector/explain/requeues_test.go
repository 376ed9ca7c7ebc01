package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// An endpoint that cannot requeue a key — its controller's queue not
// instrumented (the limiter alone: CanRequeue false), or forget not allowed
// (ReadOnly) — answers forget --requeue with "a pending retry keeps its
// time": the advice to retry now touches the object instead (kick), for a
// key and for a controller's outage; an endpoint that can keeps forget.
func TestRetryNowFollowsTheEndpointsCapabilities(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 43, 16, 0, time.UTC)
	groups := []api.ErrorGroup{{Controller: "outage", Count: 100, Class: api.ClassTransient, FirstSeen: now.Add(-4 * time.Second), LastSeen: now,
		Message: "sync with inventory API: 503 Service Unavailable", Examples: []string{"demo/outage-00000", "demo/outage-00001"}}}
	for _, tc := range []struct {
		name            string
		caps            api.Capabilities
		key, controller string
	}{
		{"queue instrumented", api.Capabilities{CanForget: true, CanRequeue: true},
			"`kubectl backoff forget --requeue`", "`kubectl backoff forget --controller outage --all --state backoff --requeue --spread 1m`"},
		{"the limiter alone", api.Capabilities{CanForget: true},
			"`kubectl backoff kick` (it touches the object", "`kubectl backoff kick --controller outage demo/outage-00000 demo/outage-00001`"},
		{"read-only", api.Capabilities{CanForget: true, CanRequeue: true, ReadOnly: true},
			"`kubectl backoff kick` (it touches the object", "`kubectl backoff kick --controller outage demo/outage-00000 demo/outage-00001`"},
	} {
		c := api.Controller{Name: "outage", Active: true, Keys: 100, Counts: map[api.State]int{api.StateBackoff: 100}, Capabilities: tc.caps}
		k := api.Key{Controller: "outage", Key: "demo/outage-00000", State: api.StateBackoff, Failures: 17,
			NextRetryAt: now.Add(time.Minute), FirstFailureAt: now.Add(-20 * time.Minute), SameErrorCount: 17,
			LastError: &api.ErrorRecord{Message: "sync with inventory API: 503 Service Unavailable", Class: api.ClassTransient, At: now.Add(-time.Minute)}}
		d := explain.Explain(explain.Input{Key: k, Controller: &c, Now: now})
		var advice string
		for _, f := range d.Findings {
			advice += f.Message + "\n"
		}
		if !strings.Contains(advice, tc.key) {
			t.Errorf("%s: key's advice\n%s\nwant %s", tc.name, advice, tc.key)
		}
		cd := explain.DiagnoseController(c, nil, groups, now)
		if len(cd.Findings) == 0 || !strings.Contains(cd.Findings[0].Message, tc.controller) {
			t.Errorf("%s: controller's advice %+v\nwant %s", tc.name, cd.Findings, tc.controller)
		}
	}
}
