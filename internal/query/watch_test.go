package query

import (
	"context"
	"net/url"
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
	v := url.Values{"sort": {"key"}}
	q, err := ParseKeys(v, h.opts.States)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := h.selected("")
	hb, slow, first, err := h.subscribe(context.Background(), "keys?"+v.Encode(), names, q, "")
	if err != nil || len(first) != 1 {
		t.Fatalf("subscribe: %v, %d first events; want the page", err, len(first))
	}
	_, keen, _, err := h.subscribe(context.Background(), "keys?"+v.Encode(), names, q, "")
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
