package inspector_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestKeyWatchMirrorsAndResumes: a watch of a real endpoint over loopback
// holds the page the list gives, follows a key's failure within a tick,
// and when the connection breaks resumes from its position without losing
// the change made meanwhile.
func TestKeyWatchMirrorsAndResumes(t *testing.T) {
	const tick = 100 * time.Millisecond
	clk := clocktesting.NewFakeClock(explainNow)
	log := logr.Discard()
	reg := instrument.NewRegistry()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log, Clock: clk, WatchTick: tick}))
	t.Cleanup(srv.Close)
	r := &replica{reg: reg, clock: clk, srv: srv}
	ctl := r.controller("ctl")
	ctl.fail(t, "ns/a", 2, "connection refused")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := r.endpoint(t, "pod").Client.WatchKeys(ctx, ctx, inspector.KeyQuery{Sort: "key"})
	if err != nil {
		t.Fatalf("WatchKeys: %v", err)
	}
	if page, _, err := w.Page(); err != nil || !slices.Equal(keysOf(page), []string{"ns/a"}) {
		t.Fatalf("first page %v (%v), want ns/a", keysOf(page), err)
	}
	// until waits for the watch to hold what want says, stepping the
	// clock a tick at a time once the hub's ticker is there.
	until := func(what string, want func(*api.KeyList, error) bool) {
		t.Helper()
		deadline := time.After(15 * time.Second)
		for {
			changed := w.Changed()
			if page, _, err := w.Page(); want(page, err) {
				return
			}
			if clk.HasWaiters() {
				clk.Step(tick)
			}
			select {
			case <-changed:
			case <-time.After(50 * time.Millisecond): // the step came before the hub's ticker; step again
			case <-deadline:
				page, rv, err := w.Page()
				t.Fatalf("%s: the watch holds %v at %s (%v)", what, keysOf(page), rv, err)
			}
		}
	}
	ctl.fail(t, "ns/b", 1, "connection refused")
	until("after ns/b failed", func(p *api.KeyList, err error) bool {
		return err == nil && slices.Equal(keysOf(p), []string{"ns/a", "ns/b"})
	})

	srv.CloseClientConnections() // the tunnel broke
	ctl.fail(t, "ns/c", 1, "connection refused")
	until("after the break and ns/c", func(p *api.KeyList, err error) bool {
		return err == nil && slices.Equal(keysOf(p), []string{"ns/a", "ns/b", "ns/c"})
	})
}

func keysOf(l *api.KeyList) []string {
	var out []string
	for _, k := range l.Items {
		out = append(out, k.Key)
	}
	return out
}

// TestSessionKeysThroughWatch: a session told to Watch reads its page from
// the watch once the endpoint says it offers one: after the first, a
// refresh costs the endpoint no list of v1/keys.
func TestSessionKeysThroughWatch(t *testing.T) {
	clk := clocktesting.NewFakeClock(explainNow)
	log := logr.Discard()
	reg := instrument.NewRegistry()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log, Clock: clk})
	var lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/v1/keys") && r.URL.Query().Get("watch") == "" {
			lists.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	r := &replica{reg: reg, clock: clk, srv: srv}
	r.controller("ctl").fail(t, "ns/a", 1, "connection refused")
	s := inspector.NewSession([]*inspector.Endpoint{r.endpoint(t, "pod")}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Watch(ctx)
	q := inspector.KeyQuery{Sort: "key"}
	if _, err := s.Keys(ctx, q); err != nil { // before an Overview: listed
		t.Fatal(err)
	}
	if _, err := s.Overview(ctx); err != nil {
		t.Fatal(err)
	}
	before := lists.Load()
	for range 3 {
		l, err := s.Keys(ctx, q)
		if err != nil || len(l.Items) != 1 || l.Items[0].Key.Key != "ns/a" {
			t.Fatalf("Keys through the watch: %+v, %v", l, err)
		}
	}
	if n := lists.Load() - before; n != 0 {
		t.Errorf("%d lists of v1/keys while watching; want none", n)
	}
	if before != 1 {
		t.Errorf("%d lists before the capability was seen; want 1", before)
	}
}

// TestSessionOverviewThroughWatch: once the endpoint offers it, a watching
// session's Overview reads v1/controllers from a watch (no list per
// refresh), Events signals the watch's next event, and the failure that
// event brought is in the next Overview.
func TestSessionOverviewThroughWatch(t *testing.T) {
	const tick = 100 * time.Millisecond
	clk := clocktesting.NewFakeClock(explainNow)
	log := logr.Discard()
	reg := instrument.NewRegistry()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log, Clock: clk, WatchTick: tick})
	var lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/v1/controllers") && r.URL.Query().Get("watch") == "" {
			lists.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	r := &replica{reg: reg, clock: clk, srv: srv}
	ctl := r.controller("ctl")
	ctl.fail(t, "ns/a", 1, "connection refused")
	s := inspector.NewSession([]*inspector.Endpoint{r.endpoint(t, "pod")}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Watch(ctx)
	if s.Events() == nil {
		t.Fatal("a watching session has no Events")
	}
	for range 3 {
		if _, err := s.Overview(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("%d lists of v1/controllers for 3 overviews; want 1, then the watch", n)
	}
	ctl.fail(t, "ns/b", 1, "connection refused")
	deadline := time.After(15 * time.Second)
	for {
		ov, err := s.Overview(ctx)
		if err == nil && ov.Controller("ctl") != nil && ov.Controller("ctl").Keys == 2 {
			break
		}
		if clk.HasWaiters() {
			clk.Step(tick)
		}
		select {
		case <-s.Events():
		case <-time.After(50 * time.Millisecond): // stepped before the hub's ticker: again
		case <-deadline:
			t.Fatalf("the overview never showed ns/b: %+v", ov)
		}
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("%d lists of v1/controllers; want 1, the rest from the watch", n)
	}
	if inspector.NewSession(nil, nil).Events() != nil {
		t.Error("a session that does not watch has Events")
	}
}
