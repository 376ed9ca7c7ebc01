package instrument

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// groupsOf names an errors page's groups, "controller message".
func groupsOf(gs []api.ErrorGroup) []string {
	var out []string
	for _, g := range gs {
		out = append(out, fmt.Sprintf("%s %s ×%d", g.Controller, g.Message, g.Count))
	}
	slices.Sort(out)
	return out
}

// TestWatchErrorsThenChanges: v1/errors?watch=true opens on the groups the
// list gives, then a tick tells the group that grew (whole) and the one
// that appeared; the capabilities offer all three watches.
func TestWatchErrorsThenChanges(t *testing.T) {
	e, srv := watchEnv(t, 0)
	w := openWatchOf(t, srv, api.WatchErrors, "controller=beta&state=backoff")
	page := w.next()
	if page.Type != api.WatchPage || page.ErrorPage == nil {
		t.Fatalf("first event %+v, want a PAGE with its errorPage", page)
	}
	if got, want := groupsOf(page.ErrorPage.Groups), []string{"beta " + htErrTimeout + " ×2"}; !slices.Equal(got, want) {
		t.Fatalf("PAGE groups %v, want %v", got, want)
	}
	e.probes["beta"].run("other/b3", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	e.probes["beta"].run("other/b4", reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	ch := w.tick(e)
	want := []string{"beta " + htErrTimeout + " ×3", "beta " + htErrRefused + " ×1"} // sorted
	if got := groupsOf(ch.ChangedGroups); ch.Type != api.WatchChange || !slices.Equal(got, want) || ch.Matched != 4 {
		t.Fatalf("after b3 and b4 failed: %+v, want a CHANGE of %v, 4 matched", ch, want)
	}
	for _, r := range ch.Order {
		if r.Controller != "beta" || r.Fingerprint == "" || r.Key != "" {
			t.Errorf("an error group is named %+v, want its controller and fingerprint", r)
		}
	}
	if bm := w.tick(e); bm.Type != api.WatchBookmark {
		t.Errorf("a tick with nothing changed: %+v, want a BOOKMARK", bm)
	}

	e.probes["beta"].run("other/b4", reconcile.Result{}, nil) // recovers: out of backoff, its group leaves
	ch = w.tick(e)
	if ch.Type != api.WatchChange || len(ch.Deleted) != 1 || ch.Deleted[0].Fingerprint == "" || len(ch.ChangedGroups) != 0 {
		t.Errorf("after b4 recovered: %+v, want its group deleted, nothing else changed", ch)
	}
}

// TestWatchControllersThenChanges: v1/controllers?watch=true opens on the
// controllers, and a failure shows as its controller's changed counts.
func TestWatchControllersThenChanges(t *testing.T) {
	e, srv := watchEnv(t, 0)
	w := openWatchOf(t, srv, api.WatchControllers, "")
	page := w.next()
	if page.Type != api.WatchPage || page.ControllerPage == nil || len(page.ControllerPage.Controllers) != 2 {
		t.Fatalf("first event %+v, want a PAGE of the 2 controllers", page)
	}
	for _, c := range page.ControllerPage.Controllers {
		for _, ep := range []string{api.WatchKeys, api.WatchErrors, api.WatchControllers} {
			if !c.Capabilities.CanWatch(ep) {
				t.Errorf("%s's capabilities %+v do not offer a watch of %s", c.Name, c.Capabilities, ep)
			}
		}
	}
	before := page.ControllerPage.Controllers[0].Counts[api.StateBackoff]
	e.probes["alpha"].run("default/a2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	ch := w.tick(e)
	// beta may change too: its forecast moves with the clock.
	i := slices.IndexFunc(ch.ChangedControllers, func(c api.Controller) bool { return c.Name == "alpha" })
	if ch.Type != api.WatchChange || i < 0 || ch.ChangedControllers[i].Counts[api.StateBackoff] != before+1 {
		t.Fatalf("after a2 failed: %+v, want a CHANGE of alpha with %d in backoff", ch, before+1)
	}
	resp, err := srv.Client().Get(srv.URL + DefaultPrefix + "v1/controllers?watch=true&q=x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("v1/controllers?watch=true&q=x: %s, want 400 (it takes no parameters)", resp.Status)
	}
}

// TestWatchResumeMissesNothingOnEveryEndpoint: on v1/errors and
// v1/controllers as on v1/keys, a watch whose connection dropped resumes
// from its position and is told first what changed while it was away.
func TestWatchResumeMissesNothingOnEveryEndpoint(t *testing.T) {
	for _, tt := range []struct {
		endpoint, query string
		missed          func(ev api.WatchEvent) bool
	}{
		{api.WatchErrors, "controller=alpha", func(ev api.WatchEvent) bool {
			return slices.ContainsFunc(ev.ChangedGroups, func(g api.ErrorGroup) bool { return g.Message == htErrTimeout && g.Count == 2 })
		}},
		{api.WatchControllers, "", func(ev api.WatchEvent) bool {
			return slices.ContainsFunc(ev.ChangedControllers, func(c api.Controller) bool {
				return c.Name == "alpha" && c.Counts[api.StateBackoff] == 3 // a1, a2 and a4
			})
		}},
	} {
		t.Run(tt.endpoint, func(t *testing.T) {
			e, srv := watchEnv(t, 0)
			w := openWatchOf(t, srv, tt.endpoint, tt.query)
			w.next() // the page
			e.probes["alpha"].run("default/a2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
			seen := w.tick(e)
			if seen.Type != api.WatchChange {
				t.Fatalf("after a2 failed: %+v, want a CHANGE", seen)
			}
			w.close() // the connection dropped

			e.probes["alpha"].run("default/a4", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
			e.clk.Step(watchTick)
			again := openWatchOf(t, srv, tt.endpoint, tt.query+"&resourceVersion="+seen.ResourceVersion)
			e.clk.Step(watchTick)
			missed := again.next()
			if missed.Type != api.WatchChange || !tt.missed(missed) {
				t.Fatalf("resumed at %s: %+v, want the CHANGE made while away", seen.ResourceVersion, missed)
			}
		})
	}
}
