package demo

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// replayStart is the replays' fake clock at the demo's start.
var replayStart = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

// serveReplay serves a replay of seed for elapsed and returns v1/controllers
// and every key (sorted by key), as the endpoint answers them.
func serveReplay(t *testing.T, seed int64, elapsed time.Duration) (controllers, keys string) {
	t.Helper()
	opts := DefaultOptions()
	opts.Seed = seed
	r, err := newReplay(opts, replayStart, elapsed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	discard := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: r.Registry, Logger: &discard}))
	defer srv.Close()
	get := func(path string) string {
		resp, err := http.Get(srv.URL + api.DefaultPrefix + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v\n%s", path, resp.StatusCode, err, b)
		}
		return string(b)
	}
	return get("v1/controllers"), get("v1/keys?sort=key&limit=1000")
}

// The same seed replays the same world, to the byte; another seed another.
func TestReplayIsDeterministic(t *testing.T) {
	c1, k1 := serveReplay(t, 7, 70*time.Second)
	c2, k2 := serveReplay(t, 7, 70*time.Second)
	if c1 != c2 || k1 != k2 {
		t.Errorf("two replays of seed 7 differ:\n%s\n%s", k1, k2)
	}
	if _, k3 := serveReplay(t, 8, 70*time.Second); k3 == k1 {
		t.Errorf("seeds 7 and 8 replay the same keys")
	}
}

// A minute into the first outage, each controller is where the demo's
// scenario puts it.
func TestReplayPlaysTheScenarios(t *testing.T) {
	body, _ := serveReplay(t, 7, 70*time.Second)
	var list api.ControllerList
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	counts := split(defaultKeys)
	tests := []struct {
		controller string
		state      api.State
		want       int
	}{
		{naiveName, api.StateBackoff, counts[scenarioIndex(naiveName)]},            // failing since the start
		{wellBehavedName, api.StateFailed, counts[scenarioIndex(wellBehavedName)]}, // failed for good
		{slowName, api.StateRunning, scenarios[scenarioIndex(slowName)].workers},   // both workers busy
	}
	byName := map[string]*api.Controller{}
	for i := range list.Controllers {
		byName[list.Controllers[i].Name] = &list.Controllers[i]
	}
	for _, tt := range tests {
		c := byName[tt.controller]
		if c == nil {
			t.Fatalf("no controller %s", tt.controller)
		}
		if e, a := tt.want, c.Counts[tt.state]; e != a {
			t.Errorf("%s: %d keys %s, want %d", tt.controller, a, tt.state, e)
		}
	}
	// The outage: most keys backing off, the bucket empty.
	o := byName[outageName]
	if n := o.Counts[api.StateBackoff]; n < counts[scenarioIndex(outageName)]*9/10 {
		t.Errorf("outage: %d keys in backoff, want at least 90%% of %d", n, counts[scenarioIndex(outageName)])
	}
	for _, comp := range o.Limiter.Components {
		if comp.Name == api.SourceBucket && (comp.Tokens == nil || *comp.Tokens >= 1) {
			t.Errorf("outage: bucket tokens %v, want an empty bucket", comp.Tokens)
		}
	}
}
