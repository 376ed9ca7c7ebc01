package query

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// loggedSource is a test source whose v1/controllers says a log's source,
// as log mode's does, which the test moves on.
type loggedSource struct {
	*keysSource
	mu  sync.Mutex
	src api.ListSource
}

func (s *loggedSource) Controllers(ctx context.Context) (*api.ControllerList, error) {
	list, err := s.keysSource.Controllers(ctx)
	s.mu.Lock()
	src := s.src
	s.mu.Unlock()
	list.Source = &src
	return list, err
}

// TestControllersChangeCarriesTheSource: the rows of a log's controllers
// may stay as they were while the log is read further; the list's source
// (lines read, the log's end) moves. A watcher of v1/controllers is told
// by a CHANGE with the source whole, and by a bookmark, without one, when
// nothing moved.
func TestControllersChangeCarriesTheSource(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	src := &loggedSource{keysSource: testKeys(clk.Now()), src: api.ListSource{Kind: api.SourceLogs, Read: &api.LogRead{Lines: 10}}}
	h := NewHandler(src, Options{Clock: clk, MaxRequestsPerSecond: -1, Reuse: -1})
	ctx := context.Background()
	spec, err := h.controllersWatch(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	hb, w, first, err := h.subscribe(ctx, spec, "")
	if err != nil || len(first) != 1 {
		t.Fatalf("subscribe: %v, %d first events; want the page", err, len(first))
	}
	defer hb.leave(w)
	next := func() api.WatchEvent {
		t.Helper()
		if err := hb.compute(ctx); err != nil {
			t.Fatal(err)
		}
		select {
		case line := <-w.events:
			var ev api.WatchEvent
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatalf("event %q: %v", line, err)
			}
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("no event after a computation")
		}
		return api.WatchEvent{}
	}
	if ev := next(); ev.Type != api.WatchBookmark || ev.Source != nil {
		t.Errorf("nothing moved: %s with source %+v; want a bookmark without one", ev.Type, ev.Source)
	}
	end := clk.Now().Add(-time.Hour)
	src.mu.Lock()
	src.src.Read, src.src.EndsAt = &api.LogRead{Lines: 25}, end
	src.mu.Unlock()
	ev := next()
	if ev.Type != api.WatchChange || ev.Source == nil || ev.Source.Read == nil || ev.Source.Read.Lines != 25 || !ev.Source.EndsAt.Equal(end) {
		t.Fatalf("the log read further: %s with source %+v; want a CHANGE with 25 lines, ending at %v", ev.Type, ev.Source, end)
	}
	if len(ev.ChangedControllers) != 0 {
		t.Errorf("changed controllers %v; none of their rows changed", ev.ChangedControllers)
	}
}
