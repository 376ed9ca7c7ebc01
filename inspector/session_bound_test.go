package inspector_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// TestSessionBoundsCallsInFlight: a fleet's refresh sends at most maxCalls
// requests at once, whatever the number of endpoints.
func TestSessionBoundsCallsInFlight(t *testing.T) {
	const pods = 3 * inspector.MaxCalls
	var inFlight, most atomic.Int64
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		inFlight.Add(-1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"backoff.kubectl.dev/v1","controllers":[]}`))
	})
	var eps []*inspector.Endpoint
	for i := range pods {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		c, err := inspector.NewClient(srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		eps = append(eps, &inspector.Endpoint{Name: "pod-" + string(rune('a'+i)), Client: c})
	}
	s := inspector.NewSession(eps, nil)
	done := make(chan error, 1)
	go func() { _, err := s.Overview(context.Background()); done <- err }()

	// Release one call each time the bound is reached: a session without
	// the bound would have more in flight by then.
	deadline := time.Now().Add(10 * time.Second)
	for left := pods; left > 0; left-- {
		for inFlight.Load() < int64(min(inspector.MaxCalls, left)) {
			if time.Now().After(deadline) {
				t.Fatalf("%d calls in flight with %d to go, want %d", inFlight.Load(), left, min(inspector.MaxCalls, left))
			}
			time.Sleep(time.Millisecond)
		}
		release <- struct{}{}
	}
	if err := <-done; err != nil {
		t.Fatalf("Overview: %v", err)
	}
	if m := most.Load(); m > inspector.MaxCalls {
		t.Errorf("%d calls were in flight at once, want at most %d", m, inspector.MaxCalls)
	}
}
