package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// watchWorld is a real endpoint on loopback — the instrument's handler
// over a registry whose probe records real failures — whose watches tick
// on a fake clock. With noWatch, its v1/controllers answers as an older
// endpoint's: capabilities without watch. It counts the lists and the
// watches of v1/keys it serves.
type watchWorld struct {
	clk            *clocktesting.FakeClock
	probe          *instrument.TypedProbe[string]
	limiter        interface{ When(string) time.Duration }
	lists, watches atomic.Int32
	// queries are the distinct queries watched, of every endpoint (a
	// reconnect's resourceVersion aside): each has one hub, which arms one
	// ticker on clk.
	queries sync.Map
	srv     *httptest.Server
}

// watchedKeys counts the distinct v1/keys queries watched.
func (w *watchWorld) watchedKeys() int {
	n := 0
	w.queries.Range(func(k, _ any) bool {
		if strings.Contains(k.(string), "/v1/keys?") {
			n++
		}
		return true
	})
	return n
}

// watched counts the distinct queries watched.
func (w *watchWorld) watched() int {
	n := 0
	w.queries.Range(func(any, any) bool { n++; return true })
	return n
}

func newWatchWorld(t *testing.T, noWatch bool) *watchWorld {
	t.Helper()
	reg := instrument.NewRegistry()
	p := instrument.NewTyped[string]("widgets", instrument.TypedOptions[string]{Registry: reg, UsePriorityQueue: ptr.To(true)})
	w := &watchWorld{clk: clocktesting.NewFakeClock(time.Now()), probe: p, limiter: p.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))}
	w.fail("demo/widget-a")
	log := logr.Discard()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log, Clock: w.clk, WatchTick: time.Second})
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		watch := r.URL.Query().Get("watch") != ""
		if watch {
			q := r.URL.Query()
			q.Del("resourceVersion")
			w.queries.Store(r.URL.Path+"?"+q.Encode(), true)
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/v1/keys") && watch:
			w.watches.Add(1)
		case strings.HasSuffix(r.URL.Path, "/v1/keys"):
			w.lists.Add(1)
		case strings.HasSuffix(r.URL.Path, "/v1/controllers") && noWatch:
			if watch {
				http.Error(rw, "no watch here", http.StatusBadRequest) // as an older endpoint refuses it
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var list api.ControllerList
			_ = json.Unmarshal(rec.Body.Bytes(), &list)
			for i := range list.Controllers {
				list.Controllers[i].Capabilities.Watch, list.Controllers[i].Capabilities.Watches = false, nil
			}
			rw.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(rw).Encode(list)
			return
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *watchWorld) fail(key string) {
	_ = w.probe.Track(key, func() error { return errors.New("dial tcp 10.0.0.7:443: connect: connection refused") })
	w.limiter.When(key)
}

// topOn is top's model on w's endpoint, told to watch as `top` tells it.
func topOn(t *testing.T, w *watchWorld, now func() time.Time) Model {
	t.Helper()
	s, err := inspector.Direct(w.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newModel(ctx, view.Options{Session: s, Watch: true, Refresh: time.Second, Clock: now})
	return send(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
}

// feed runs cmd and each command it batches, at once, and sends the model
// every read that comes back (view.ReadMsg), until every command has
// answered or until(m) holds. A command that waits longer than the
// deadline (the wait for the next watch event) is left behind.
func feed(t *testing.T, m Model, cmd tea.Cmd, until func(Model) bool) Model {
	t.Helper()
	return feedWithin(t, m, cmd, until, 2*time.Second)
}

// feedReads is feed for commands that all answer (reads, no watch): it
// waits as long as a loaded machine may take to answer them (-race, 2
// cores), where feed's 2s, the time a watch's wait is given, could leave a
// slow read behind and the page without it.
func feedReads(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	return feedWithin(t, m, cmd, nil, 30*time.Second)
}

func feedWithin(t *testing.T, m Model, cmd tea.Cmd, until func(Model) bool, within time.Duration) Model {
	t.Helper()
	got := make(chan tea.Msg, 16)
	outstanding := 0
	launch := func(c tea.Cmd) {
		if c != nil {
			outstanding++
			go func() { got <- c() }()
		}
	}
	launch(cmd)
	deadline := time.After(within)
	for outstanding > 0 {
		select {
		case msg := <-got:
			outstanding--
			switch msg := msg.(type) {
			case tea.BatchMsg:
				for _, sub := range msg {
					launch(sub)
				}
			case view.ReadMsg:
				mm, _ := m.Update(msg) // a refit's read is the next refresh's
				m = mm.(Model)
				if until != nil && until(m) {
					return m
				}
			}
		case <-deadline:
			return m
		}
	}
	return m
}

func pageKeys(m Model) []string {
	var out []string
	if m.tbl().Page != nil {
		for _, k := range m.tbl().Page.Items {
			out = append(out, k.Key.Key)
		}
	}
	return out
}

// TestTopShowsAChangeThroughTheWatch: top against an endpoint that offers
// watches has data on its first frame, then opens the watches; a key that
// starts failing reaches the table within a second of the endpoint's
// tick, redrawn on the watch's event (no tick of top's own clock, no list
// of v1/keys).
func TestTopShowsAChangeThroughTheWatch(t *testing.T) {
	w := newWatchWorld(t, false)
	now := time.Now()
	m := topOn(t, w, func() time.Time { return now })
	m = feedReads(t, m, m.refreshTop()) // the first frame: listed, capabilities seen
	if got := pageKeys(m); !slices.Equal(got, []string{"demo/widget-a"}) {
		t.Fatalf("first frame %v, want demo/widget-a", got)
	}
	m = feed(t, m, m.refreshTop(), nil) // the watches open
	// One watch per page asked for: the page's size may change once as the
	// header settles (the overview's lines arriving after the keys'), and
	// each size is a query of its own; never two watches of one query.
	if n, pages := w.watches.Load(), w.watchedKeys(); n == 0 || int(n) != pages {
		t.Fatalf("%d watches of v1/keys opened for %d pages, want one each", n, pages)
	}
	lists := w.lists.Load()
	events := awaitWatch(m.c.Conn.Session)

	w.fail("demo/widget-b")
	deadline := time.Now().Add(10 * time.Second)
	// Every hub's ticker armed (top watches distinct queries, one hub
	// each), so that the one step below is a tick of the keys' hub too.
	for w.clk.Waiters() < w.watched() {
		if time.Now().After(deadline) {
			t.Fatalf("the endpoint's watches never ticked: %d tickers for %d queries watched", w.clk.Waiters(), w.watched())
		}
		time.Sleep(time.Millisecond) // polling a condition, with a deadline
	}
	w.clk.Step(time.Second) // the endpoint's one tick: the change must come of it alone
	for !slices.Contains(pageKeys(m), "demo/widget-b") {
		got := make(chan tea.Msg, 1)
		go func() { got <- events() }()
		select {
		case msg := <-got:
			mm, cmd := m.Update(msg)
			m = mm.(Model)
			m = feed(t, m, cmd, func(m Model) bool { return slices.Contains(pageKeys(m), "demo/widget-b") })
			events = awaitWatch(m.c.Conn.Session)
		case <-time.After(10 * time.Second): // a deadline, not a measure: no second tick comes
			t.Fatalf("no watch event after the endpoint's one tick; the table has %v", pageKeys(m))
		}
	}
	if n := w.lists.Load() - lists; n != 0 {
		t.Errorf("%d lists of v1/keys while watching; want the watch alone", n)
	}
	if !bytes.Contains([]byte(m.View().Content), []byte("widget-b")) {
		t.Errorf("the screen does not show widget-b:\n%s", m.View().Content)
	}
}

// TestTopPollsWithoutWatch: against an endpoint whose capabilities offer no
// watch, top opens none and shows the change on its refresh tick, listed.
func TestTopPollsWithoutWatch(t *testing.T) {
	w := newWatchWorld(t, true)
	now := time.Now()
	m := topOn(t, w, func() time.Time { return now })
	m = feedReads(t, m, m.refreshTop())
	m = feedReads(t, m, m.refreshTop())
	w.fail("demo/widget-b")
	now = now.Add(time.Second) // top's refresh is due
	mm, cmd := m.Update(tickMsg{})
	m = feedReads(t, mm.(Model), cmd)
	if got := pageKeys(m); !slices.Contains(got, "demo/widget-b") {
		t.Fatalf("after a refresh tick: %v, want widget-b listed", got)
	}
	if n := w.watches.Load(); n != 0 {
		t.Errorf("%d watches opened on an endpoint without watch", n)
	}
	if w.lists.Load() < 3 {
		t.Errorf("%d lists of v1/keys, want one a refresh", w.lists.Load())
	}
}
