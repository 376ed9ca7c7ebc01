package query

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// Issue #47 item 6: a client opening distinct queries one after another,
// each watched then left, kept a hub computing every tick per query for
// watchLinger (8 clients for 60 s: ~300 hubs, RSS 148 → 472 MB). The hubs,
// lingering or watched, stay within MaxWatches; the one alone longest goes.
func TestLingeringHubsAreBounded(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	const max = 4
	h := NewHandler(testKeys(clk.Now()), Options{Clock: clk, MaxRequestsPerSecond: -1, MaxWatches: max})
	defer h.CloseWatches()
	var kept *hub
	for i := range 50 {
		spec, err := h.keysWatch(url.Values{"sort": {"key"}, "q": {fmt.Sprintf("k%d", i)}})
		if err != nil {
			t.Fatal(err)
		}
		hb, wt, _, err := h.subscribe(context.Background(), spec, "")
		if err != nil {
			t.Fatalf("watch %d: %v", i, err)
		}
		if i == 0 {
			kept = hb // watched throughout: never evicted
			continue
		}
		clk.Step(time.Millisecond) // each left after the one before
		hb.leave(wt)
		h.watchMu.Lock()
		n := len(h.hubs)
		h.watchMu.Unlock()
		if n > max {
			t.Fatalf("after %d distinct queries watched and left, %d hubs live; want at most %d", i+1, n, max)
		}
	}
	select {
	case <-kept.stopped:
		t.Error("the hub still watched was stopped")
	default:
	}
}
