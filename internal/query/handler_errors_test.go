package query

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// errorKeys are what the instrument's error tests record through a probe,
// one reconcile each 12ms (an error at its end): alpha has 7 keys refused
// by different addresses (default/r0 twice, last), 3 missing configmaps, a
// terminal error and a key without error; beta 2 timeouts, queued again.
func errorKeys() *keysSource {
	src := &keysSource{at: ms(180)}
	add := func(ctrl, key string, st api.State, failures int, msg, class string, first, last int) {
		k := api.Key{Controller: ctrl, Key: key, State: st, Failures: failures}
		if msg != "" {
			k.FirstFailureAt = ms(first)
			k.LastError = &api.ErrorRecord{Message: msg, Class: class, At: ms(last)}
		}
		if st == api.StateBackoff || st == api.StateQueued {
			k.NextRetryAt = ms(last + 1000)
		}
		src.keys = append(src.keys, k)
	}
	for i := range 7 {
		last := 12*i + 2
		if i == 0 {
			last = 146
		}
		add("alpha", fmt.Sprintf("default/r%d", i), api.StateBackoff, 1+(1-min(i, 1)),
			fmt.Sprintf("dial tcp 10.0.0.%d:443: connect: connection refused", []int{9, 1, 2, 3, 4, 5, 6}[i]), "transient", 12*i+2, last)
	}
	for i := range 3 {
		add("alpha", fmt.Sprintf("default/c%d", i), api.StateBackoff, 1,
			fmt.Sprintf("configmaps %q not found", fmt.Sprintf("cm-%d", i)), "permanent", 12*(7+i)+2, 12*(7+i)+2)
	}
	add("alpha", "default/t", api.StateFailed, 0, errInvalid, "permanent", 122, 122)
	add("alpha", "default/ok", api.StateIdle, 0, "", "", 0, 0)
	add("beta", "other/b1", api.StateQueued, 1, errTimeout, "transient", 158, 158)
	add("beta", "other/b2", api.StateQueued, 1, errTimeout, "transient", 170, 170)
	// Scanned largest key first: a group's examples must be its smallest
	// keys, not the first seen.
	slices.Reverse(src.keys)
	return src
}

// getInto GETs target into out, which must succeed.
func getInto(t *testing.T, h http.Handler, target string, out any) {
	t.Helper()
	b, _ := json.Marshal(getOK(t, h, target))
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
}

// TestHandlerErrors: v1/errors groups the last errors by controller and
// fingerprint, within the filters, counts adding up, with the times of
// the oldest streak and the newest error.
func TestHandlerErrors(t *testing.T) {
	h := newTestHandler(errorKeys(), Options{})
	type group struct {
		controller, fingerprint string
		count                   int
		examples                []string
	}
	refused := group{"alpha", "dial tcp …: connect: connection refused", 7, []string{"default/r0", "default/r1", "default/r2"}}
	missing := group{"alpha", `configmaps "…" not found`, 3, []string{"default/c0", "default/c1", "default/c2"}}
	timeout := group{"beta", errTimeout, 2, []string{"other/b1", "other/b2"}}
	invalid := group{"alpha", errInvalid, 1, []string{"default/t"}}
	tests := []struct {
		query        string
		total, match int
		want         []group
	}{
		{"", 14, 13, []group{refused, missing, timeout, invalid}},
		{"?controller=beta", 2, 2, []group{timeout}},
		{"?state=failed", 14, 1, []group{invalid}},
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
		getInto(t, h, "v1/errors"+tt.query, &list)
		if list.Total != tt.total || list.Matched != tt.match {
			t.Errorf("%s: total, matched = %d, %d; want %d, %d", tt.query, list.Total, list.Matched, tt.total, tt.match)
		}
		var got []group
		sum := 0
		for _, g := range list.Groups {
			got = append(got, group{g.Controller, g.Fingerprint, g.Count, g.Examples})
			sum += g.Count
			if Fingerprint(g.Message) != g.Fingerprint {
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
	checkGroupTimes(t, h)

	code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+"v1/errors?controller=nope", "")
	checkError(t, "unknown controller", code, m, http.StatusNotFound, "NotFound", "nope")
}

// checkGroupTimes: the refused group's times are first from the oldest
// streak, last from the newest error (default/r0 failed again last), as
// v1/key shows them.
func checkGroupTimes(t *testing.T, h http.Handler) {
	t.Helper()
	var list api.ErrorGroupList
	getInto(t, h, "v1/errors?controller=alpha", &list)
	r0 := getOK(t, h, "v1/key?controller=alpha&key=default/r0")
	r1 := getOK(t, h, "v1/key?controller=alpha&key=default/r1")
	g := list.Groups[0]
	if want := timeOf(t, r0["firstFailureAt"]); !g.FirstSeen.Equal(want) {
		t.Errorf("firstSeen = %v, want default/r0's firstFailureAt %v", g.FirstSeen, want)
	}
	if want := timeOf(t, r0["lastError"].(map[string]any)["at"]); !g.LastSeen.Equal(want) || !g.LastSeen.After(timeOf(t, r1["lastError"].(map[string]any)["at"])) {
		t.Errorf("lastSeen = %v, want default/r0's last error at %v", g.LastSeen, want)
	}
}

// TestErrorPattern: error matches the last error alone, beside q, in
// v1/keys, and a bad one is refused by its name. (A forget's filter with
// an error pattern is the instrument forgetter's.)
func TestErrorPattern(t *testing.T) {
	h := newTestHandler(errorKeys(), Options{})
	keysOf := func(query string) []string {
		var list api.KeyList
		getInto(t, h, "v1/keys?sort=key&"+query, &list)
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
	code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+"v1/keys?error=~(", "")
	checkError(t, "a bad error pattern", code, m, http.StatusBadRequest, "BadRequest", "error")
	code, _, m = serve(t, h, http.MethodGet, api.DefaultPrefix+"v1/errors?error=~(", "")
	checkError(t, "a bad error pattern in v1/errors", code, m, http.StatusBadRequest, "BadRequest", "error")
}
