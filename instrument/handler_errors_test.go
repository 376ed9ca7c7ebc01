package instrument

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The engine's own tests (internal/query) cover v1/errors' grouping and
// filters over any source; these cover what the probe's records give it.

// htErrorsEnv: alpha has 7 keys refused by different addresses, 3 missing
// configmaps and a terminal error; beta 2 timeouts; and keys without error.
func htErrorsEnv(t *testing.T) *htEnv {
	e := newHTEnv(t)
	a := e.probe("alpha", true, NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))
	for i := range 7 {
		a.run(fmt.Sprintf("default/r%d", i), reconcile.Result{}, fmt.Errorf("dial tcp 10.0.0.%d:443: connect: connection refused", i))
	}
	for i := range 3 {
		a.run(fmt.Sprintf("default/c%d", i), reconcile.Result{}, fmt.Errorf("configmaps %q not found", fmt.Sprintf("cm-%d", i)))
	}
	a.run("default/t", reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("%s", htErrInvalid)))
	a.run("default/ok", reconcile.Result{}, nil)
	a.run("default/r0", reconcile.Result{}, fmt.Errorf("dial tcp 10.0.0.9:443: connect: connection refused"))
	b := e.probe("beta", false, nil)
	b.run("other/b1", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	b.run("other/b2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	return e
}

// TestHandlerErrorsFromRecords: the errors a probe records reach v1/errors
// with their messages (a terminal error's prefix kept), states (beta's 5ms
// backoffs are over: its keys are queued, a failed key is failed) and
// times (a group's first and last as v1/key shows its keys).
func TestHandlerErrorsFromRecords(t *testing.T) {
	e := htErrorsEnv(t)
	type group struct {
		controller, fingerprint string
		count                   int
		examples                []string
	}
	refused := group{"alpha", "dial tcp …: connect: connection refused", 7, []string{"default/r0", "default/r1", "default/r2"}}
	missing := group{"alpha", `configmaps "…" not found`, 3, []string{"default/c0", "default/c1", "default/c2"}}
	timeout := group{"beta", htErrTimeout, 2, []string{"other/b1", "other/b2"}}
	invalid := group{"alpha", "terminal error: " + htErrInvalid, 1, []string{"default/t"}}
	tests := []struct {
		query        string
		total, match int
		want         []group
	}{
		{"", 14, 13, []group{refused, missing, timeout, invalid}},
		{"?state=failed", 14, 1, []group{invalid}},
		{"?state=backoff,failed", 14, 11, []group{refused, missing, invalid}},
		{"?state=queued", 14, 2, []group{timeout}},
		{"?state=idle", 14, 0, nil},
	}
	for _, tt := range tests {
		var list api.ErrorGroupList
		e.getInto("v1/errors"+tt.query, &list)
		if list.Total != tt.total || list.Matched != tt.match {
			t.Errorf("%s: total, matched = %d, %d; want %d, %d", tt.query, list.Total, list.Matched, tt.total, tt.match)
		}
		var got []group
		for _, g := range list.Groups {
			got = append(got, group{g.Controller, g.Fingerprint, g.Count, g.Examples})
		}
		if !slices.EqualFunc(got, tt.want, func(a, b group) bool {
			return a.controller == b.controller && a.fingerprint == b.fingerprint && a.count == b.count && slices.Equal(a.examples, b.examples)
		}) {
			t.Errorf("%s: groups\n%v\nwant\n%v", tt.query, got, tt.want)
		}
	}
	// The refused group's times: first from the oldest streak, last from the
	// newest error (default/r0 failed again last).
	var list api.ErrorGroupList
	e.getInto("v1/errors?controller=alpha", &list)
	r0 := e.get("v1/key?controller=alpha&key=default/r0")
	r1 := e.get("v1/key?controller=alpha&key=default/r1")
	g := list.Groups[0]
	if want := htTime(t, r0["firstFailureAt"]); !g.FirstSeen.Equal(want) {
		t.Errorf("firstSeen = %v, want default/r0's firstFailureAt %v", g.FirstSeen, want)
	}
	if want := htTime(t, r0["lastError"].(map[string]any)["at"]); !g.LastSeen.Equal(want) || !g.LastSeen.After(htTime(t, r1["lastError"].(map[string]any)["at"])) {
		t.Errorf("lastSeen = %v, want default/r0's last error at %v", g.LastSeen, want)
	}
}

// getInto GETs target into out, which must succeed.
func (e *htEnv) getInto(target string, out any) {
	e.t.Helper()
	m := e.get(target)
	b, _ := json.Marshal(m)
	if err := json.Unmarshal(b, out); err != nil {
		e.t.Fatalf("GET %s: %v", target, err)
	}
}

// TestForgetErrorFilter: a forget's filter takes an error pattern beside q
// (an error group's keys within the user's own filter).
func TestForgetErrorFilter(t *testing.T) {
	e := htErrorsEnv(t)
	body, _ := json.Marshal(api.ForgetRequest{Controller: "alpha", DryRun: true,
		Filter: &api.Filter{Q: "default/c", Error: "cm-1"}})
	code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", string(body))
	if code != http.StatusOK || m["count"] != 1.0 {
		t.Errorf("forget q=default/c error=cm-1: status %d, %v; want 200 and count 1", code, m)
	}
}
