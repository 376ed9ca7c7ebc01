package query

import (
	"context"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestSlowWatcherIsDropped: a watcher that has watchBacklog events unread
// is dropped, never buffered for: the next event closes its dropped
// channel (its request then writes why and ends), and the others go on.
func TestSlowWatcherIsDropped(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	h := NewHandler(testKeys(clk.Now()), Options{Clock: clk, MaxRequestsPerSecond: -1})
	spec, err := h.keysWatch(url.Values{"sort": {"key"}})
	if err != nil {
		t.Fatal(err)
	}
	hb, slow, first, err := h.subscribe(context.Background(), spec, "")
	if err != nil || len(first) != 1 {
		t.Fatalf("subscribe: %v, %d first events; want the page", err, len(first))
	}
	_, keen, _, err := h.subscribe(context.Background(), spec, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range watchBacklog {
		hb.broadcast([]byte{byte(i), '\n'})
		<-keen.events // the keen one reads; the slow one does not
	}
	select {
	case <-slow.dropped:
		t.Fatalf("dropped with %d events unread; the backlog is %d", len(slow.events), watchBacklog)
	default:
	}
	hb.broadcast([]byte("one too many\n"))
	select {
	case <-slow.dropped:
	default:
		t.Fatal("a watcher past its backlog was kept")
	}
	select {
	case <-keen.dropped:
		t.Fatal("the watcher that keeps up was dropped")
	case line := <-keen.events:
		if string(line) != "one too many\n" {
			t.Errorf("keen got %q", line)
		}
	}
	if h.watchers != 2 {
		t.Errorf("%d watchers counted, want 2 until their requests end", h.watchers)
	}
	hb.leave(slow)
	hb.leave(keen)
	if h.watchers != 0 {
		t.Errorf("%d watchers counted after both left", h.watchers)
	}
}

// gatedSource is a Source whose views wait for a gate: a first page that
// takes as long as the test says. It counts the views read.
type gatedSource struct {
	*keysSource
	entered chan struct{} // one send per view begun
	gate    chan struct{} // closed to let views finish
	views   atomic.Int32
}

func (s *gatedSource) View(ctx context.Context, names []string) (time.Time, View, error) {
	s.views.Add(1)
	s.entered <- struct{}{}
	select {
	case <-s.gate:
	case <-ctx.Done():
		return time.Time{}, nil, ctx.Err()
	}
	return s.keysSource.View(ctx, names)
}

// TestFirstPageOutsideTheLock: while a new watch's first page is being
// computed, the handler's lock is free — a watch of another query that is
// already running is left and counted off at once — and three more
// watchers of the same query wait for that one computation rather than
// starting their own.
func TestFirstPageOutsideTheLock(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	src := &gatedSource{keysSource: testKeys(clk.Now()), entered: make(chan struct{}, 8), gate: make(chan struct{})}
	h := NewHandler(src, Options{Clock: clk, MaxRequestsPerSecond: -1, Reuse: -1})
	ctx := context.Background()

	// A watch of v1/controllers (no view read) is open before.
	cspec, err := h.controllersWatch(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	chb, cw, _, err := h.subscribe(ctx, cspec, "")
	if err != nil {
		t.Fatal(err)
	}

	spec, err := h.keysWatch(url.Values{"sort": {"key"}})
	if err != nil {
		t.Fatal(err)
	}
	type joined struct {
		first [][]byte
		err   error
	}
	got := make(chan joined, 4)
	for range 4 {
		go func() {
			_, _, first, err := h.subscribe(ctx, spec, "")
			got <- joined{first, err}
		}()
	}
	select {
	case <-src.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("no first page began")
	}
	// The first page is being computed: the lock must be free.
	left := make(chan struct{})
	go func() { chb.leave(cw); close(left) }()
	select {
	case <-left:
	case <-time.After(10 * time.Second):
		t.Fatal("leaving another query's watch waited on a first page being computed")
	}
	// The four are all counted (the bound holds meanwhile): wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		h.watchMu.Lock()
		n := h.watchers
		h.watchMu.Unlock()
		if n == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d watchers counted while the page is computed, want the 4", n)
		}
		runtime.Gosched()
	}
	close(src.gate)
	for range 4 {
		select {
		case j := <-got:
			if j.err != nil || len(j.first) != 1 || !strings.Contains(string(j.first[0]), `"type":"PAGE"`) {
				t.Errorf("a watcher of the query: %v, %q; want the PAGE", j.err, j.first)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a watcher never got its page")
		}
	}
	if n := src.views.Load(); n != 1 {
		t.Errorf("%d views read for four new watchers of one query, want 1 shared", n)
	}
}
