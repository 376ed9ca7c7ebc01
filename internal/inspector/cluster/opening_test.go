package cluster

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestTunnelOpeningBound runs many tunnels sharing an Opening bound: no more
// than its capacity ever resolve and forward at once, and every one gets
// its turn.
func TestTunnelOpeningBound(t *testing.T) {
	const tunnels, bound = 20, 3
	var mu sync.Mutex
	inside, most, done := 0, 0, 0
	release := make(chan struct{})
	resolve := func(ctx context.Context) (string, string, int, error) {
		mu.Lock()
		inside++
		most = max(most, inside)
		mu.Unlock()
		defer func() {
			mu.Lock()
			inside--
			done++
			mu.Unlock()
		}()
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "", "", 0, errors.New("no pod") // a failed attempt: the slot frees
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	opening := make(chan struct{}, bound)
	for range tunnels {
		tun := NewTunnel(nil, resolve, TunnelOptions{Backoff: time.Hour, Opening: opening})
		wg.Go(func() { _ = tun.Run(ctx) })
	}
	state := func() (int, int, int) {
		mu.Lock()
		defer mu.Unlock()
		return inside, most, done
	}
	for n := range tunnels {
		pfEventually(t, "the bound to fill", func() bool {
			in, _, d := state()
			return d == n && in == min(bound, tunnels-n)
		})
		release <- struct{}{}
	}
	pfEventually(t, "every tunnel to have opened", func() bool { _, _, d := state(); return d == tunnels })
	if _, m, _ := state(); m != bound {
		t.Errorf("at most %d opened at once, want %d", m, bound)
	}
}
