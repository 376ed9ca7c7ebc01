package snapshot

import (
	"net/http"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query/sourcetest"
)

// TestConformance: a snapshot's server passes the suite every v1 source
// runs, over one replica that held the suite's keys when it was taken.
func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T, keys []sourcetest.Key) http.Handler {
		at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
		ep := Endpoint{Name: "ctrl-0", ServerTime: at}
		counts := map[string]int{}
		for _, k := range keys {
			counts[k.Controller]++
			ep.Keys = append(ep.Keys, api.Key{Controller: k.Controller, Key: k.Key, State: api.StateBackoff, Failures: k.Failures,
				LastError: &api.ErrorRecord{Message: k.Error, At: at.Add(-time.Second)}, NextRetryAt: at.Add(time.Minute)})
		}
		for _, name := range []string{"alpha", "beta"} {
			if counts[name] > 0 {
				ep.Controllers = append(ep.Controllers, api.Controller{Name: name, Keys: counts[name]})
			}
		}
		return newServer(&ep, time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	})
}
