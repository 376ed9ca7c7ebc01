package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// outageFromLog replays FirstOutage's world (seed 7, 70s: a minute into the
// first outage) with its controllers' log, and reads the log into a store
// whose now is the replay's end, as `kubectl backoff --from-logs` reads a
// log being written. It returns the endpoint's keys and the store.
func outageFromLog(t *testing.T) (endpoint map[string]api.Key, store *logs.Store, now time.Time) {
	t.Helper()
	opts := DefaultOptions()
	opts.Seed = 7
	r, srv, log := replayWithLog(t, opts, 70*time.Second)
	endpoint = map[string]api.Key{}
	for _, k := range listKeys(t, srv, "") {
		endpoint[k.Controller+"/"+k.Key] = k
	}
	store = readReplayLog(t, r, log)
	return endpoint, store, r.Clock.Now()
}

// TestOutageFromLogMatchesEndpoint: the demo's outage read from its log
// agrees with its endpoint, key by key. Every key failing on the endpoint
// is failing in the log (never unknown) with the same count and a next
// retry within 20% of its delay; the outage's keys have the token bucket's
// delays (10 qps after a burst of 100: ~10s), not 5ms·2^n; and their
// streaks start when the outage did, in the key, its error group and the
// controller's line alike.
func TestOutageFromLogMatchesEndpoint(t *testing.T) {
	endpoint, store, now := outageFromLog(t)
	outageStart := replayStart.Add(warmup)
	failing, outageFailing := 0, 0
	for id, want := range endpoint {
		if want.State != api.StateBackoff {
			continue
		}
		failing++
		if want.Controller == outageName {
			outageFailing++
		}
		d, err := store.Key(want.Controller, want.Key)
		if err != nil {
			t.Errorf("%s: failing on the endpoint, not in the log: %v", id, err)
			continue
		}
		got := d.Key
		if got.State != want.State || got.Failures != want.Failures {
			t.Errorf("%s: log says %s after %d failures, endpoint %s after %d", id, got.State, got.Failures, want.State, want.Failures)
		}
		tolerance := want.Delay.Duration / 5
		if off := got.NextRetryAt.Sub(want.NextRetryAt).Abs(); off > tolerance {
			t.Errorf("%s: next retry %s (delay %v, %s) in the log, %s (delay %v, %s) on the endpoint: %v apart, more than 20%% of the delay",
				id, got.NextRetryAt.Format(time.TimeOnly), got.Delay.Duration, got.DelaySource,
				want.NextRetryAt.Format(time.TimeOnly), want.Delay.Duration, want.DelaySource, off)
		}
		if want.Controller == outageName && (got.DelaySource != api.SourceBucket || !got.FirstFailureAt.Equal(outageStart)) {
			t.Errorf("%s: delay from %q, failing since %v; want the bucket's, since %v (the outage's start; endpoint %v)",
				id, got.DelaySource, got.FirstFailureAt, outageStart, want.FirstFailureAt)
		}
	}
	// The seed's outage fails 100 keys; the replay leaves a few of them
	// queued at the end: an event replaced their pending retry (see
	// Replay), which the instrument, as the classic queue would, still
	// counts on, so nothing is logged when it comes due.
	if outageFailing < 90 {
		t.Fatalf("%d outage keys failing on the endpoint; the seed's outage fails 100", outageFailing)
	}

	// The controller's line and its error groups: one group for the outage,
	// failing since the outage's start, the bucket deciding.
	var outage *api.Controller
	cl := store.Controllers()
	for i := range cl.Controllers {
		if cl.Controllers[i].Name == outageName {
			outage = &cl.Controllers[i]
		}
	}
	if outage == nil {
		t.Fatalf("no controller %q in the log's v1/controllers", outageName)
	}
	// The keys the replay left queued past their retry are backoff in the
	// log while within its grace, unknown after: never fewer failing keys
	// than on the endpoint, and every outage key one or the other.
	backoff := outage.Counts[api.StateBackoff]
	if backoff < outageFailing || backoff+outage.Counts[api.StateUnknown] != 100 || outage.Keys != 100 {
		t.Errorf("outage: log's counts %v of %d keys; want at least the endpoint's %d in backoff, all 100 backoff or unknown", outage.Counts, outage.Keys, outageFailing)
	}
	// Through the read handler every source shares (v1/errors), so the
	// groups are the instrument's fingerprints.
	session := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: outage", Handler: store.Handler()})
	defer session.Close()
	groups, err := session.Errors(context.Background(), outageName, api.Filter{States: []api.State{api.StateBackoff}})
	if err != nil {
		t.Fatal(err)
	}
	if len(groups.Groups) != 1 || groups.Groups[0].Count != backoff || !groups.Groups[0].FirstSeen.Equal(outageStart) {
		var b strings.Builder
		for _, g := range groups.Groups[:min(3, len(groups.Groups))] {
			b.WriteString("\n  " + g.FirstSeen.Format(time.TimeOnly) + " " + g.Message)
		}
		t.Errorf("outage: %d error groups (the first %d keys, first seen …%s); want one of %d keys, first seen %s",
			len(groups.Groups), firstCount(groups.Groups), b.String(), backoff, outageStart.Format(time.TimeOnly))
	}
	diag := explain.DiagnoseController(*outage, cl.Source, groups.Groups, now)
	keysLine := fmt.Sprintf("Keys: 100 tracked: %d backoff", backoff)
	if n := outage.Counts[api.StateUnknown]; n > 0 {
		keysLine += fmt.Sprintf(", %d unknown", n) // the counts add up
	}
	if len(diag.Details) == 0 || diag.Details[0] != keysLine {
		t.Errorf("details %q; want the first %q", diag.Details, keysLine)
	}
	line := diag.Line()
	for _, want := range []string{fmt.Sprintf("%d keys backing off since %s", backoff, outageStart.Format(time.TimeOnly)), "the token bucket is empty"} {
		if !strings.Contains(line, want) {
			t.Errorf("controller line %q; want it to say %q", line, want)
		}
	}
}

func firstCount(gs []api.ErrorGroup) int {
	if len(gs) == 0 {
		return 0
	}
	return gs[0].Count
}
