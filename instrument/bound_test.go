package instrument

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestMaxKeysIsABound floods a small store with distinct failing keys from
// several goroutines, as a mass failure would: it never holds more than its
// hard bound (MaxKeys plus one shard's slack), and once the eviction started
// by the flood has run it is back under MaxKeys.
func TestMaxKeysIsABound(t *testing.T) {
	for _, tc := range []struct{ maxKeys, keys, workers int }{
		{100, 10_000, 8},
		{5_000, 200_000, 4},
	} {
		t.Run(fmt.Sprintf("max=%d/keys=%d", tc.maxKeys, tc.keys), func(t *testing.T) {
			ep := newTestEndpoint(t)
			p := New("flood", Options{Registry: ep.Registry, MaxKeys: tc.maxKeys, Clock: clock.RealClock{}})
			rl := p.RateLimiter(NewExponentialLimiter[reconcile.Request](time.Minute, time.Hour))
			hard := p.store.hardMax()
			var peak int64
			var mu sync.Mutex
			var wg sync.WaitGroup
			for w := range tc.workers {
				wg.Go(func() {
					var local int64
					for i := w; i < tc.keys; i += tc.workers {
						rl.When(htReq(fmt.Sprintf("flood/k%07d", i)))
						local = max(local, int64(p.store.len()))
					}
					mu.Lock()
					peak = max(peak, local)
					mu.Unlock()
				})
			}
			wg.Wait()
			if peak > hard {
				t.Errorf("the store held %d keys during the flood, over its bound %d", peak, hard)
			}
			eventually(t, waitFor, func() (bool, string) {
				n := p.store.len()
				return n <= tc.maxKeys && !p.store.evicting.Load(),
					fmt.Sprintf("%d keys after the flood, want at most MaxKeys %d", n, tc.maxKeys)
			})
			c := ep.controller("flood")
			if c.Keys > tc.maxKeys {
				t.Errorf("v1/controllers: keys = %d, want at most %d", c.Keys, tc.maxKeys)
			}
			if c.Overflow == 0 {
				t.Errorf("v1/controllers: overflow = 0, want the keys not recorded while the store was full counted")
			}
		})
	}
}
