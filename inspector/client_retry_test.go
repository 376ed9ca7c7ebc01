package inspector_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// busyEndpoint is a real endpoint whose first busy list requests are
// answered as an endpoint at its admission limit answers them: 429, the
// documented error shape, and Retry-After. It records when requests came.
type busyEndpoint struct {
	mu         sync.Mutex
	busy       int // requests still to refuse; <0 refuses all
	retryAfter string
	arrived    []time.Time
}

func (b *busyEndpoint) start(t *testing.T) string {
	t.Helper()
	log := logr.Discard()
	reg := instrument.NewRegistry()
	p := instrument.NewTyped[string]("widgets", instrument.TypedOptions[string]{Registry: reg})
	p.RateLimiter(nil).When("demo/w1")
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.arrived = append(b.arrived, time.Now())
		refuse := b.busy != 0
		if b.busy > 0 {
			b.busy--
		}
		b.mu.Unlock()
		if refuse {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", b.retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"code":429,"reason":"TooManyRequests","message":"the endpoint is computing 2 lists already; retry in a second"}}`))
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (b *busyEndpoint) times() []time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]time.Time(nil), b.arrived...)
}

// TestClientRetriesBusy: a 429 is retried after the Retry-After the endpoint
// names, a bounded number of times, and a wait gives way to the context.
func TestClientRetriesBusy(t *testing.T) {
	t.Run("retried after Retry-After", func(t *testing.T) {
		b := &busyEndpoint{busy: 1, retryAfter: "1"}
		c, err := inspector.NewClient(b.start(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		list, err := c.Keys(context.Background(), inspector.KeyQuery{})
		if err != nil {
			t.Fatalf("Keys: %v, want the page after one retry", err)
		}
		if len(list.Items) != 1 || list.Items[0].Key != "demo/w1" {
			t.Errorf("items = %v, want demo/w1", list.Items)
		}
		got := b.times()
		if len(got) != 2 {
			t.Fatalf("%d requests, want 2 (one refused, one answered)", len(got))
		}
		if wait := got[1].Sub(got[0]); wait < time.Second {
			t.Errorf("retried after %v, want at least the 1s Retry-After asked", wait)
		}
	})
	t.Run("bounded", func(t *testing.T) {
		b := &busyEndpoint{busy: -1, retryAfter: "0"}
		c, err := inspector.NewClient(b.start(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Keys(context.Background(), inspector.KeyQuery{})
		var apiErr *inspector.APIError
		if !errors.As(err, &apiErr) || apiErr.Code != http.StatusTooManyRequests || !strings.Contains(apiErr.Message, "tried 4 times") {
			t.Errorf("Keys error = %v, want a 429 APIError saying it tried 4 times", err)
		}
		if n := len(b.times()); n != 4 {
			t.Errorf("%d requests, want 4", n)
		}
	})
	t.Run("context ends the wait", func(t *testing.T) {
		b := &busyEndpoint{busy: -1, retryAfter: "5"}
		c, err := inspector.NewClient(b.start(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		// The deadline falls in the 5s wait, not in the request before
		// it: 50ms was less than one loopback request takes on a loaded
		// machine (-race), and its deadline then said nothing of busy.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err = c.Keys(ctx, inspector.KeyQuery{})
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "busy") {
			t.Errorf("Keys error = %v, want the deadline, saying the endpoint was busy", err)
		}
		if n := len(b.times()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
}
