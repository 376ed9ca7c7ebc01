package instrument

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
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

// BenchmarkFloodHeap feeds 1,000,000 distinct failing keys at full speed
// through client-go's limiter, bare and recording with the default MaxKeys
// (decorating it, or the probe's own limiter, whose counts it keeps),
// and reports the heap each leaves once the evictions it started have run.
// The bare limiter's own per-key map is the baseline (the controller has it
// either way); the goal is at most 150 MiB over it.
func BenchmarkFloodHeap(b *testing.B) {
	const n = 1_000_000
	for _, mode := range []string{"bare", "recording", "recording-default"} {
		b.Run(mode, func(b *testing.B) {
			var heapMiB, kept float64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				// Without metrics: the Prometheus registry would keep the
				// previous run's probe alive, in this run's baseline.
				p := New("flood", Options{Registry: NewRegistry(), DisableMetrics: true})
				rl := workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay)
				switch mode {
				case "recording":
					rl = p.RateLimiter(rl)
				case "recording-default":
					// The probe's own limiter: its counts in the store, and
					// aside for the keys the store cannot hold.
					rl = p.RateLimiter(nil)
				}
				var buf []byte
				for i := range n {
					buf = strconv.AppendInt(buf[:0], int64(i), 10)
					rl.When(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "flood", Name: string(buf)}})
				}
				for p.store.len() > DefaultMaxKeys || p.store.evicting.Load() {
					runtime.Gosched() // the last eviction pass finishing
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				heapMiB = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
				kept = float64(p.store.len())
				runtime.KeepAlive(p)
				runtime.KeepAlive(rl)
			}
			b.ReportMetric(heapMiB, "MiB-heap")
			b.ReportMetric(kept, "keys-kept")
		})
	}
}
