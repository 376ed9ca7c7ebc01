package instrument

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// watchTick is the tests' watch period, on the fake clock.
const watchTick = 100 * time.Millisecond

// watchEnv is htFixture served over loopback HTTP with watches that tick
// on the fixture's fake clock.
func watchEnv(t *testing.T, maxWatches int) (*htEnv, *httptest.Server) {
	t.Helper()
	e := htFixture(t)
	srv := httptest.NewServer(NewHandler(HandlerOptions{Registry: e.reg, WatchTick: watchTick, MaxWatches: maxWatches, Clock: e.clk}))
	t.Cleanup(srv.Close)
	return e, srv
}

// watchStream is one open watch: its events as they arrive.
type watchStream struct {
	t      *testing.T
	resp   *http.Response
	lines  *bufio.Scanner
	cancel context.CancelFunc
}

// openWatch starts GET v1/keys?watch=true&query.
func openWatch(t *testing.T, srv *httptest.Server, query string) *watchStream {
	t.Helper()
	return openWatchOf(t, srv, api.WatchKeys, query)
}

// openWatchOf starts GET endpoint?watch=true&query.
func openWatchOf(t *testing.T, srv *httptest.Server, endpoint, query string) *watchStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+DefaultPrefix+endpoint+"?watch=true&"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatalf("watch: %v", err)
	}
	s := &watchStream{t: t, resp: resp, lines: bufio.NewScanner(resp.Body), cancel: cancel}
	s.lines.Buffer(nil, 1<<20)
	t.Cleanup(s.close)
	return s
}

func (s *watchStream) close() {
	s.cancel()
	_ = s.resp.Body.Close()
}

// next is the next event, within a deadline: the server writes one per tick.
func (s *watchStream) next() api.WatchEvent {
	s.t.Helper()
	got := make(chan api.WatchEvent, 1)
	go func() {
		var ev api.WatchEvent
		if s.lines.Scan() {
			if err := json.Unmarshal(s.lines.Bytes(), &ev); err != nil {
				ev = api.WatchEvent{Type: "undecodable: " + s.lines.Text()}
			}
		} else {
			ev.Type = fmt.Sprintf("stream ended: %v", s.lines.Err())
		}
		got <- ev
	}()
	select {
	case ev := <-got:
		return ev
	case <-time.After(10 * time.Second):
		s.t.Fatal("no watch event within 10s")
		return api.WatchEvent{}
	}
}

// tick steps the fake clock one watch period and returns the event it
// brought: each tick writes exactly one (a change or a bookmark).
func (s *watchStream) tick(e *htEnv) api.WatchEvent {
	s.t.Helper()
	// The hub's ticker is made when the watch opens; wait until the fake
	// clock has it before stepping, or the step would be missed.
	deadline := time.Now().Add(10 * time.Second)
	for !e.clk.HasWaiters() {
		if time.Now().After(deadline) {
			s.t.Fatal("the watch's ticker never started")
		}
		time.Sleep(time.Millisecond)
	}
	e.clk.Step(watchTick)
	return s.next()
}

func refs(keys []api.Key) []string {
	var out []string
	for _, k := range keys {
		out = append(out, k.Controller+"/"+k.Key)
	}
	return out
}

// TestWatchPageThenChanges: a watch opens on the page the same query lists,
// then each tick says only what changed — a failure shows as the key's
// changed row — or, with nothing changed, a bookmark that moves the position.
func TestWatchPageThenChanges(t *testing.T) {
	e, srv := watchEnv(t, 0)
	w := openWatch(t, srv, "controller=alpha&sort=key")
	if w.resp.StatusCode != http.StatusOK || w.resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("watch: %s, Content-Type %q", w.resp.Status, w.resp.Header.Get("Content-Type"))
	}
	page := w.next()
	if page.Type != api.WatchPage || page.Page == nil {
		t.Fatalf("first event %+v, want a PAGE", page)
	}
	want := []string{"alpha/default/a1", "alpha/default/a2", "alpha/default/a4", "alpha/kube-system/A3"}
	if got := refs(page.Page.Items); !slices.Equal(got, want) {
		t.Fatalf("PAGE rows %v, want %v (the list's)", got, want)
	}

	e.probes["alpha"].run("default/a2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	ch := w.tick(e)
	if ch.Type != api.WatchChange || len(ch.Changed) != 1 || ch.Changed[0].Key != "default/a2" || ch.Changed[0].Failures != 1 {
		t.Fatalf("after default/a2 failed: %+v, want a CHANGE of default/a2 with 1 failure", ch)
	}
	if ch.ResourceVersion == page.ResourceVersion {
		t.Errorf("a change kept the position %q", ch.ResourceVersion)
	}
	if bm := w.tick(e); bm.Type != api.WatchBookmark || len(bm.Changed) != 0 || bm.ResourceVersion != ch.ResourceVersion {
		t.Errorf("a tick with nothing changed: %+v, want a BOOKMARK at %s", bm, ch.ResourceVersion)
	}

	e.probes["alpha"].run("default/a1", reconcile.Result{}, nil) // a1 recovers: it stays on the page, changed
	e.probes["alpha"].run("default/a9", reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	ch = w.tick(e)
	got := refs(ch.Changed)
	slices.Sort(got)
	if ch.Type != api.WatchChange || !slices.Equal(got, []string{"alpha/default/a1", "alpha/default/a9"}) || len(ch.Order) != 5 {
		t.Fatalf("after a1 recovered and a9 failed: %+v, want both changed and the new order of 5", ch)
	}
}

// TestWatchResumeMissesNothing: a client whose connection broke resumes
// from its position and gets what changed meanwhile; a position the server
// cannot vouch for is refused with 410, so the client lists again.
func TestWatchResumeMissesNothing(t *testing.T) {
	e, srv := watchEnv(t, 0)
	w := openWatch(t, srv, "controller=alpha&sort=key")
	w.next() // the page
	e.probes["alpha"].run("default/a2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	seen := w.tick(e)
	w.close() // the tunnel broke

	e.probes["alpha"].run("default/a4", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	// The hub lingers for its watcher's return and keeps the change, made
	// at this tick or, if the hub has not read it yet when the client is
	// back, at the next: either way it is the first thing the client sees.
	e.clk.Step(watchTick)
	again := openWatch(t, srv, "controller=alpha&sort=key&resourceVersion="+seen.ResourceVersion)
	e.clk.Step(watchTick)
	missed := again.next()
	if missed.Type != api.WatchChange || !slices.Equal(refs(missed.Changed), []string{"alpha/default/a4"}) {
		t.Fatalf("resumed at %s: %+v, want the CHANGE of default/a4 made while away", seen.ResourceVersion, missed)
	}

	for _, rv := range []string{"0-1", "nonsense"} {
		resp, err := srv.Client().Get(srv.URL + DefaultPrefix + "v1/keys?watch=true&controller=alpha&sort=key&resourceVersion=" + rv)
		if err != nil {
			t.Fatal(err)
		}
		var body api.ErrorResponse
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusGone && resp.StatusCode != http.StatusBadRequest || body.Error.Message == "" {
			t.Errorf("resourceVersion %q: %d %+v, want 410 (or 400) saying to watch again", rv, resp.StatusCode, body.Error)
		}
	}
}

// TestWatchesAreBounded: watches past MaxWatches are refused with 429 and
// a message that says what to do; continue is not a watch's.
func TestWatchesAreBounded(t *testing.T) {
	_, srv := watchEnv(t, 1)
	w := openWatch(t, srv, "sort=key")
	w.next()
	for _, q := range []string{"sort=key", "controller=beta", "continue=abc"} {
		resp, err := srv.Client().Get(srv.URL + DefaultPrefix + "v1/keys?watch=true&" + q)
		if err != nil {
			t.Fatal(err)
		}
		var body api.ErrorResponse
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		want := http.StatusTooManyRequests
		if q == "continue=abc" {
			want = http.StatusBadRequest
		}
		if resp.StatusCode != want || body.Error.Message == "" {
			t.Errorf("watch %s with one open of one: %d %q, want %d with a message", q, resp.StatusCode, body.Error.Message, want)
		}
	}
}
