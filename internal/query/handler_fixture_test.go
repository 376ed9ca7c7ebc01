package query

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The engine's HTTP tests (handler_*_test.go) run over keysSource: the
// keys below are what the instrument's tests record through a probe, as
// wire values, so that the same requests get the same answers here.

// Errors of the fixture.
const (
	errRefused = "dial tcp 10.0.0.7:443: connect: connection refused"
	errTimeout = "Timeout waiting for the volume"
	errInvalid = "terminal error: invalid spec"
)

// fixtureT0 is when the fixture's first reconcile began.
var fixtureT0 = time.Date(2025, 3, 4, 10, 2, 13, 0, time.UTC)

// ms is fixtureT0 plus n milliseconds.
func ms(n int) time.Time { return fixtureT0.Add(time.Duration(n) * time.Millisecond) }

// fixtureKeys are what the instrument's handler tests record through a
// probe (alpha: 3 refusals, a success, a RequeueAfter, a terminal error;
// beta: 1 and 2 timeouts), as wire values: the sort orders differ on them.
func fixtureKeys() *keysSource {
	fail := func(msg, class string, at time.Time) *api.ErrorRecord {
		return &api.ErrorRecord{Message: msg, Class: class, At: at}
	}
	return &keysSource{at: ms(108), keys: []api.Key{
		{Controller: "alpha", Key: "default/a1", State: api.StateBackoff, Failures: 3, FirstFailureAt: ms(2),
			LastError: fail(errRefused, "transient", ms(26)), NextRetryAt: ms(4026)},
		{Controller: "alpha", Key: "default/a2", State: api.StateIdle},
		{Controller: "alpha", Key: "default/a4", State: api.StateFailed, FirstFailureAt: ms(62),
			LastError: fail(errInvalid, "permanent", ms(62))},
		{Controller: "alpha", Key: "kube-system/A3", State: api.StateScheduled, NextRetryAt: ms(60050)},
		{Controller: "beta", Key: "other/b1", State: api.StateBackoff, Failures: 1, FirstFailureAt: ms(74),
			LastError: fail(errTimeout, "transient", ms(74)), NextRetryAt: ms(1074)},
		{Controller: "beta", Key: "other/b2", State: api.StateBackoff, Failures: 2, FirstFailureAt: ms(86),
			LastError: fail(errTimeout, "transient", ms(98)), NextRetryAt: ms(1086)},
	}}
}

// newTestHandler is the engine over src, on a fake clock at src's time,
// unpaced: pacing is not what these tests look at.
func newTestHandler(src *keysSource, opts Options) *Handler {
	opts.Clock = clocktesting.NewFakeClock(src.at)
	opts.MaxRequestsPerSecond = -1
	return NewHandler(src, opts)
}

// getOK GETs target (under the prefix) and fails the test unless it is 200.
func getOK(t *testing.T, h http.Handler, target string) map[string]any {
	t.Helper()
	code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+target, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: status = %d, want 200: %v", target, code, m)
	}
	return m
}

// itemsOf returns the items of a v1/keys answer.
func itemsOf(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	raw, ok := m["items"].([]any)
	if !ok {
		t.Fatalf("items = %T, want a list: %v", m["items"], m)
	}
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i] = it.(map[string]any)
	}
	return out
}

// namesOf names the items as "controller:key".
func namesOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%v:%v", it["controller"], it["key"])
	}
	return out
}

func timeOf(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("time %v: %v", v, err)
	}
	return at
}

// optTime reads an optional time field: ok is false when it is omitted.
func optTime(t *testing.T, k map[string]any, field string) (time.Time, bool) {
	v, ok := k[field]
	if !ok {
		return time.Time{}, false
	}
	return timeOf(t, v), true
}

// manyKeys are n keys of controller gamma, "ns/k%04d" (width wide), each
// failed once a millisecond after the one before.
func manyKeys(n int, format string) *keysSource {
	src := &keysSource{at: ms(n + 1)}
	for i := range n {
		src.keys = append(src.keys, api.Key{Controller: "gamma", Key: fmt.Sprintf(format, i), State: api.StateBackoff,
			Failures: 1, FirstFailureAt: ms(i), NextRetryAt: ms(i + 5)})
	}
	return src
}
