package ui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// withErrors serves f's real endpoint with v1/errors answered by list, as
// the instrument handler will: the rest of the API is f's own.
// asked returns the queries v1/errors was asked so far: the group view's,
// and every refresh's (the header's diagnosis reads the retrying keys').
func withErrors(t *testing.T, f *fixture, list *api.ErrorGroupList) (s *inspector.Session, asked func() []string) {
	t.Helper()
	var mu sync.Mutex
	var queries []string
	asked = func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(queries)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == api.DefaultPrefix+"v1/errors" {
			mu.Lock()
			queries = append(queries, r.URL.RawQuery)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(list)
			return
		}
		f.handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, asked
}

// g shows the endpoint's exact groups; Enter on one shows its keys, and
// only those, in the top view.
func TestJourneyErrorGroups(t *testing.T) {
	f := newFixture(t, 5, false)
	f.fail("demo/widget-000003", `quota "team-7" exceeded by 12 objects`)
	now := time.Now()
	list := &api.ErrorGroupList{ServerTime: now, Total: 5, Matched: 5, Groups: []api.ErrorGroup{
		{Controller: "widgets", Fingerprint: "sync inventory: dial tcp …: connect: connection refused", Message: "sync inventory: dial tcp 10.0.0.1:443: connect: connection refused", Class: api.ClassTransient, Count: 4,
			FirstSeen: now.Add(-time.Minute), LastSeen: now, Examples: []string{"demo/widget-000000"}},
		{Controller: "widgets", Fingerprint: `quota "…" exceeded by … objects`, Message: `quota "team-7" exceeded by 12 objects`, Class: api.ClassPermanent, Count: 1,
			FirstSeen: now, LastSeen: now, Examples: []string{"demo/widget-000003"}},
	}}
	s, asked := withErrors(t, f, list)
	j := startJourneyWith(t, view.Options{Session: s, Refresh: 100 * time.Millisecond})
	j.waitFor("demo/widget-000004", "5 matched")

	j.key("g")
	j.waitFor("2 distinct errors over 5 keys in backoff,failed (every controller)")
	// A fold is named by what it folded ("…" is a cut's alone).
	j.waitLine("4 keys", "widgets", "transient", "sync inventory: dial tcp <address>: connect: connection refused")
	j.waitLine("1 key", "widgets", "permanent", `quota "<name>" exceeded by <number> objects`)

	j.key("j")
	j.key("enter")
	j.waitFor("controller widgets", "1–1 of 1 matched", "showing the keys of one error group")
	j.waitLine("›", "demo/widget-000003", "quota")
	if strings.Contains(j.screenNow(), "demo/widget-000004") {
		t.Errorf("a key of another group is shown:\n%s", j.screenNow())
	}
	if q := asked(); !slices.Contains(q, "state=backoff&state=failed") {
		t.Errorf("v1/errors asked with %q, want the group view's with the failing states", q)
	}

	// esc goes back to the groups it was opened from, and undoes the
	// drill-down whole: filter, controller and states.
	j.key("esc")
	j.waitFor("left the error group: back to the error groups; esc then shows every key of every controller")
	j.waitLine("4 keys", "widgets", "transient")
	j.key("esc")
	j.waitLine("1–5 of 5 matched", "controller all")
	if s := j.screenNow(); strings.Contains(s, "· states ") || strings.Contains(s, "· filter ") {
		t.Errorf("after esc, the group's states or filter still apply:\n%s", s)
	}
}

// The group view refreshes on its own, as the top view does: a new error
// shows without ctrl+r, the cursor stays on the group it was on (by
// controller and fingerprint) when the counts reorder the groups, and the
// title says how fresh the groups are.
func TestJourneyErrorGroupsRefresh(t *testing.T) {
	f := newFixture(t, 4, false)
	const quota = `quota "team-7" exceeded`
	f.fail("demo/quota-000001", quota)
	j := startJourney(t, f)
	j.waitFor("demo/widget-000003")

	j.key("g")
	j.waitLine("4 keys", "widgets", "sync inventory: dial tcp")
	j.waitLine("1 key", "widgets", `quota "<name>" exceeded`)
	j.waitLine("keys grouped by error · updated ")
	j.key("j") // onto the quota group, second by count
	j.waitLine("widgets: " + quota)

	// A request already asked but not yet answered may carry the change
	// (on a loaded machine it was read after the failures below): the
	// answers before the change are the mark, not the requests.
	answered := f.answersFrom("v1/errors")
	for i := 2; i <= 6; i++ {
		f.fail(fmt.Sprintf("demo/quota-%06d", i), quota)
	}
	j.waitLine("6 keys", "widgets", `quota "<name>" exceeded`) // no ctrl+r
	if got := f.callsTo("v1/errors"); got <= answered {
		t.Errorf("v1/errors asked %d times, %d answered before the change: the group view did not refresh", got, answered)
	}
	// The quota group is first now; the cursor went with it.
	j.waitLine("6 keys · failing for")
	if s := j.screenNow(); !strings.Contains(s, "widgets: "+quota) {
		t.Errorf("after the groups reordered, the selected group is not the quota group:\n%s", s)
	}
}

// The group view says how old its groups are, and ages them between
// reads as the top view does; paused, it says they no longer refresh.
func TestGroupViewSaysHowFresh(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("g"), fixedGroups())
	later := t0.Add(2 * time.Second)
	m.c.Opts.Clock = func() time.Time { return later }
	title := splitLines(screen(m))[0]
	if !strings.Contains(title, "keys grouped by error · updated 2s ago") {
		t.Errorf("title %q, want it to say \"updated 2s ago\"", title)
	}
	m = send(t, m, press("p"))
	if title := splitLines(screen(m))[0]; !strings.Contains(title, "⏸ PAUSED") {
		t.Errorf("paused: title %q, want \"⏸ PAUSED\"", title)
	}
}

// The group view reads the groups of the keys the user's filter selects,
// says so, and a group's forget acts on the group's keys within the filter:
// what the dialog says is what is sent.
func TestGroupViewAppliesTheFilter(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 16}} {
		m := send(t, loaded(t, sz[0], sz[1]), press("/"))
		m = send(t, m, typeText("naive-0000")...)
		m = send(t, m, press("enter"), press("g"))
		if got := m.grp().Filter; got != "naive-0000" {
			t.Errorf("at %dx%d the group view reads groups with filter %q, want the top view's", sz[0], sz[1], got)
		}
		m = send(t, m, fixedGroups())
		if s := squashSpaces(screen(m)); !strings.Contains(s, `matching "naive-0000"`) {
			t.Errorf("at %dx%d the group view does not say it counts the filtered keys:\n%s", sz[0], sz[1], screen(m))
		}
		m = send(t, m, press("j"), press("j"), press("f"))
		if m.dialog() == nil {
			t.Fatalf("at %dx%d f on a group opened no dialog", sz[0], sz[1])
		}
		m = send(t, m, dryRunMsg{id: m.dialog().ID, count: 10})
		s := squashSpaces(strings.ReplaceAll(screen(m), "│", " ")) // the dialog's borders
		if want := `Forget the backoff of 10 keys of naive whose last error is`; !strings.Contains(s, want) {
			t.Errorf("at %dx%d the dialog does not say %q:\n%s", sz[0], sz[1], want, screen(m))
		}
		for _, r := range m.dialog().Act.Requests() {
			if r.Filter == nil || r.Filter.Q != "naive-0000" || r.Filter.Error != view.FingerprintFilter(`spec.storageClass: required value: ConfigMap "…" has none`) {
				t.Errorf("request %+v, want the user's filter and the group's error pattern", r)
			}
		}
	}
}

// Against the real endpoint: filtered to 10 keys, the group view counts
// those 10, and f on their error group forgets those 10, not the group's 30.
func TestJourneyGroupForgetUnderAFilter(t *testing.T) {
	f := newFixture(t, 30, false)
	j := startJourney(t, f)
	j.waitFor("30 matched")
	j.key("/")
	j.tm.Type("widget-00000")
	j.key("enter")
	j.waitFor("1–10 of 10 matched")

	j.key("g")
	j.waitLine("10 keys", "widgets", "sync inventory: dial tcp")
	j.key("f")
	j.waitLine("Forget the backoff of 10 keys of widgets")
	j.key("y")
	j.waitFor("forgot the backoff of 10 keys of widgets")
}
