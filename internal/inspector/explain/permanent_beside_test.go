package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestHeadlineSaysThePermanentKey: three keys on one 503 make the headline
// an outage; the one key beside them the tool classes permanent, retried
// just as long, must be in the headline too.
func TestHeadlineSaysThePermanentKey(t *testing.T) {
	c := api.Controller{Name: "configmap", Active: true, Keys: 4,
		Limiter: api.Limiter{Description: "item-exponential 5ms..16m40s"},
		Counts:  map[api.State]int{api.StateBackoff: 4}}
	g := func(msg, class string, n int) api.ErrorGroup {
		return api.ErrorGroup{Controller: "configmap", Message: msg, Class: class, Count: n, FirstSeen: diagNow.Add(-time.Minute), LastSeen: diagNow}
	}
	groups := []api.ErrorGroup{
		g("sync down-1: 503 Service Unavailable: eu region unavailable", api.ClassTransient, 3),
		g(`ConfigMap "bad-422" is invalid: data: Too long`, api.ClassPermanent, 1),
	}
	d := explain.DiagnoseController(c, nil, groups, diagNow)
	if want := `1 key retrying a permanent error no retry fixes: ConfigMap "bad-422" is invalid`; !strings.Contains(d.Summary, want) {
		t.Errorf("summary %q does not say %q", d.Summary, want)
	}
	// Alone, the permanent error is the headline already: not said twice.
	d = explain.DiagnoseController(c, nil, groups[1:], diagNow)
	if n := strings.Count(d.Summary, "bad-422"); n != 1 {
		t.Errorf("summary %q names bad-422 %d times, want once", d.Summary, n)
	}
}
