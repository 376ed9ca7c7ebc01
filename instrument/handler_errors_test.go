package instrument

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

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

func TestHandlerErrors(t *testing.T) {
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
		{"?controller=beta", 2, 2, []group{timeout}},
		{"?state=failed", 14, 1, []group{invalid}},
		// beta's 5ms backoffs are over: its keys are queued.
		{"?state=backoff,failed", 14, 11, []group{refused, missing, invalid}},
		{"?state=queued", 14, 2, []group{timeout}},
		{"?state=idle", 14, 0, nil},
		// The user's filter (q: the key or its error) and an error pattern.
		{"?q=r1", 14, 1, []group{{refused.controller, refused.fingerprint, 1, []string{"default/r1"}}}},
		{"?error=~%5Edial", 14, 7, []group{refused}},
		{"?q=default/c&error=cm-1", 14, 1, []group{{missing.controller, missing.fingerprint, 1, []string{"default/c1"}}}},
		{"?q=default/c&error=refused", 14, 0, nil},
	}
	for _, tt := range tests {
		var list api.ErrorGroupList
		e.getInto("v1/errors"+tt.query, &list)
		if list.Total != tt.total || list.Matched != tt.match {
			t.Errorf("%s: total, matched = %d, %d; want %d, %d", tt.query, list.Total, list.Matched, tt.total, tt.match)
		}
		var got []group
		sum := 0
		for _, g := range list.Groups {
			got = append(got, group{g.Controller, g.Fingerprint, g.Count, g.Examples})
			sum += g.Count
			if query.Fingerprint(g.Message) != g.Fingerprint {
				t.Errorf("%s: group %q: message %q is not one of its own", tt.query, g.Fingerprint, g.Message)
			}
			if g.FirstSeen.IsZero() || g.LastSeen.Before(g.FirstSeen) {
				t.Errorf("%s: group %q: firstSeen %v, lastSeen %v", tt.query, g.Fingerprint, g.FirstSeen, g.LastSeen)
			}
		}
		if sum != list.Matched {
			t.Errorf("%s: counts add up to %d, want matched %d", tt.query, sum, list.Matched)
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

	code, _, m := e.do(e.h, http.MethodGet, api.DefaultPrefix+"v1/errors?controller=nope", "")
	htCheckError(t, "unknown controller", code, m, http.StatusNotFound, "NotFound", "nope")
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

// TestErrorPattern: error matches the last error alone, beside q, in
// v1/keys and in a forget's filter (an error group's keys within the
// user's own filter), and a bad one is refused by its name.
func TestErrorPattern(t *testing.T) {
	e := htErrorsEnv(t)
	keysOf := func(query string) []string {
		var list api.KeyList
		e.getInto("v1/keys?sort=key&"+query, &list)
		var keys []string
		for _, k := range list.Items {
			keys = append(keys, k.Key)
		}
		return keys
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"error=not+found", []string{"default/c0", "default/c1", "default/c2"}},
		{"q=default/r&error=10.0.0.9", []string{"default/r0"}},
		{"error=default", nil}, // a key's name is not its error
	} {
		if got := keysOf(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("v1/keys?%s = %v, want %v", tt.query, got, tt.want)
		}
	}

	body, _ := json.Marshal(api.ForgetRequest{Controller: "alpha", DryRun: true,
		Filter: &api.Filter{Q: "default/c", Error: "cm-1"}})
	code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", string(body))
	if code != http.StatusOK || m["count"] != 1.0 {
		t.Errorf("forget q=default/c error=cm-1: status %d, %v; want 200 and count 1", code, m)
	}

	code, _, m = e.do(e.h, http.MethodGet, api.DefaultPrefix+"v1/keys?error=~(", "")
	htCheckError(t, "a bad error pattern", code, m, http.StatusBadRequest, "BadRequest", "error")
	code, _, m = e.do(e.h, http.MethodGet, api.DefaultPrefix+"v1/errors?error=~(", "")
	htCheckError(t, "a bad error pattern in v1/errors", code, m, http.StatusBadRequest, "BadRequest", "error")
}
