package instrument

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/zapr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// benchKeys is how many distinct keys the limiter benchmarks cycle through.
const benchKeys = 10_000

// benchRequests builds n distinct requests up front, so that building keys is
// not part of what is measured.
func benchRequests(n int) []reconcile.Request {
	reqs := make([]reconcile.Request, n)
	for i := range reqs {
		reqs[i] = reconcile.Request{NamespacedName: types.NamespacedName{
			Namespace: "ns-" + strconv.Itoa(i%100),
			Name:      "widget-" + strconv.Itoa(i),
		}}
	}
	return reqs
}

// benchProbe is a probe in its own registry on a fake clock.
func benchProbe(usePQ bool) *Probe {
	return New("bench", Options{
		Registry:         NewRegistry(),
		Clock:            clocktesting.NewFakeClock(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)),
		UsePriorityQueue: ptr.To(usePQ),
	})
}

// benchRealProbe is a probe on the real clock, as in production: the fake
// clock's mutex would add cost (and contention) a controller does not have.
// Tracked is the documented integration (ControllerOptions + Reconciler): the
// reconciler reports outcomes, so the limiter does not infer them.
func benchRealProbe(usePQ, tracked bool) *Probe {
	p := New("bench", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(usePQ)})
	if tracked {
		p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		}))
	}
	return p
}

// limiterCases are the limiters compared side by side: client-go's default
// bare; the same wrapped as a custom limiter; the probe's recording default
// for the classic queue, with and without the reconciler decorator; and the
// priority queue's default (exponential only) bare, recording (fused: its
// count in the store) and decorated.
func limiterCases() []struct {
	name string
	new  func() workqueue.TypedRateLimiter[reconcile.Request]
} {
	type limiter = workqueue.TypedRateLimiter[reconcile.Request]
	return []struct {
		name string
		new  func() workqueue.TypedRateLimiter[reconcile.Request]
	}{
		{"bare", func() limiter { return workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]() }},
		{"decorated", func() limiter {
			return benchRealProbe(false, true).RateLimiter(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
		}},
		{"recording", func() limiter { return benchRealProbe(false, true).RateLimiter(nil) }},
		{"recording-untracked", func() limiter { return benchRealProbe(false, false).RateLimiter(nil) }},
		{"bare-pq", func() limiter {
			return workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay)
		}},
		{"recording-pq", func() limiter { return benchRealProbe(true, true).RateLimiter(nil) }},
		// A limiter the user passes in is decorated, not fused: its When is
		// client-go's, then the store's record.
		{"decorated-pq", func() limiter {
			return benchRealProbe(true, true).RateLimiter(NewExponentialLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay))
		}},
	}
}

// benchWarm runs one When+Forget cycle over every key, so that the steady state
// (every key known to the store, its history allocated) is what is measured.
func benchWarm(rl workqueue.TypedRateLimiter[reconcile.Request], reqs []reconcile.Request) {
	for range historySize {
		for _, r := range reqs {
			rl.When(r)
			rl.Forget(r)
		}
	}
}

func BenchmarkWhenForget(b *testing.B) {
	reqs := benchRequests(benchKeys)
	for _, tc := range limiterCases() {
		b.Run(tc.name, func(b *testing.B) {
			rl := tc.new()
			benchWarm(rl, reqs)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r := reqs[i%len(reqs)]
				rl.When(r)
				rl.Forget(r)
				i++
			}
		})
	}
}

// BenchmarkWhenFailing is When alone on keys that keep failing: the
// controller in trouble, when people look. Both sides hold every key's count
// (client-go's map, the store), where the When+Forget pair above lets
// client-go's map stay empty (each Forget deletes what the When added).
func BenchmarkWhenFailing(b *testing.B) {
	reqs := benchRequests(benchKeys)
	for _, tc := range limiterCases() {
		b.Run(tc.name, func(b *testing.B) {
			rl := tc.new()
			for _, r := range reqs {
				rl.When(r)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				rl.When(reqs[i%len(reqs)])
				i++
			}
		})
	}
}

func BenchmarkWhenForgetParallel(b *testing.B) {
	reqs := benchRequests(benchKeys)
	for _, tc := range limiterCases() {
		b.Run(tc.name, func(b *testing.B) {
			rl := tc.new()
			benchWarm(rl, reqs)
			b.ReportAllocs()
			var started atomic.Int64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				// Each goroutine starts elsewhere, as workers hold different
				// keys: no two run the same key in lockstep.
				i := int(started.Add(1)) * (len(reqs) / 7)
				for pb.Next() {
					r := reqs[i%len(reqs)]
					rl.When(r)
					rl.Forget(r)
					i++
				}
			})
		})
	}
}

func BenchmarkReconcileSameError(b *testing.B) {
	errDial := errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
	errLong := errors.New(strings.Repeat("x", maxErrorBytes+1)) // kept truncated
	failWith := func(err error) reconcile.Reconciler {
		return reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, err
		})
	}
	req := benchRequests(1)[0]
	cases := []struct {
		name string
		r    reconcile.Reconciler
		err  error
	}{
		{"bare", failWith(errDial), errDial},
		{"probe", benchRealProbe(true, false).Reconciler(failWith(errDial)), errDial},
		{"probe-long-error", benchRealProbe(true, false).Reconciler(failWith(errLong)), errLong},
	}
	ctx := context.Background()
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for range 2 * historySize {
				_, _ = tc.r.Reconcile(ctx, req)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tc.r.Reconcile(ctx, req); err != tc.err {
					b.Fatalf("Reconcile error = %v, want %v", err, tc.err)
				}
			}
		})
	}
}

// BenchmarkLogLine is what users do today instead: one structured JSON line
// per retry, carrying what the probe records, through logr over zap.
func BenchmarkLogLine(b *testing.B) {
	enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
	core := zapcore.NewCore(enc, zapcore.AddSync(io.Discard), zapcore.DebugLevel)
	log := zapr.NewLogger(zap.New(core))
	errDial := errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
	reqs := benchRequests(benchKeys)
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := reqs[i%len(reqs)]
		log.Error(errDial, "Reconciler error", "controller", "widget", "key", r.NamespacedName,
			"failures", 7, "delay", 640*time.Millisecond, "source", api.SourceItemExponential,
			"nextRetry", now.Add(640*time.Millisecond))
		i++
	}
}

func BenchmarkKeysTop100(b *testing.B) {
	const n = 100_000
	p := benchProbe(true)
	rl := p.RateLimiter(nil)
	for i, r := range benchRequests(n) {
		for range i % 5 {
			rl.When(r)
		}
		if i%5 == 0 {
			rl.Forget(r)
		}
	}
	h := NewHandler(HandlerOptions{Registry: benchRegistryOf(p), Reuse: -1, MaxRequestsPerSecond: unpaced})
	target := api.DefaultPrefix + "v1/keys?sort=next&limit=100"
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil)
		req.Header.Set("Accept", "application/json")
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status = %d, want 200: %s", rec.Code, rec.Body)
		}
	}
}

// benchRegistryOf returns a registry listing only p.
func benchRegistryOf(p *Probe) *Registry {
	r := NewRegistry()
	r.add(p)
	return r
}

// BenchmarkMemoryPerKey measures what the store holds per key, on top of the
// inner limiter's own map (which a bare controller has too): the store is
// driven directly, as the decorators would.
//
// A key usually fails on one error again and again, which its history keeps
// once; "errors=16" is a key whose every attempt failed differently (the 16
// messages are shared by all keys, so that what is measured is the history's
// table, not the messages).
func BenchmarkMemoryPerKey(b *testing.B) {
	for _, tc := range []struct{ attempts, errors int }{{1, 1}, {historySize, 1}, {historySize, historySize}} {
		b.Run(fmt.Sprintf("attempts=%d/errors=%d", tc.attempts, tc.errors), func(b *testing.B) {
			reqs := benchRequests(100_000)
			var perKey float64
			for b.Loop() {
				perKey = heapPerKey(b, reqs, tc.attempts, tc.errors)
			}
			b.ReportMetric(perKey, "B/key")
		})
	}
}

// heapPerKey fills a fresh store with one failing key per request, each with
// the given number of attempts failing on a cycle of the given number of
// messages, and returns the heap it holds per key. The store is local, so it
// is garbage once this returns: every call measures from the same baseline.
func heapPerKey(b *testing.B, reqs []reconcile.Request, attempts, messages int) float64 {
	errs := make([]error, messages)
	for i := range errs {
		errs[i] = fmt.Errorf("dial tcp 10.0.0.%d:443: connect: connection refused", i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// Without metrics: the Prometheus registry keeps the last probe of a name
	// alive, which would count this one in the next call's baseline.
	p := New("bench", Options{
		Registry:         NewRegistry(),
		Clock:            clocktesting.NewFakeClock(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)),
		UsePriorityQueue: ptr.To(true),
		DisableMetrics:   true,
	})
	s := p.store
	for _, r := range reqs {
		for i := range attempts {
			began := s.now()
			s.started(r, began)
			s.finished(r, reconcile.Result{}, errs[i%messages], began)
			s.limited(r, DefaultBaseDelay, srcItemExponential, true)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if got := s.len(); got != len(reqs) {
		b.Fatalf("store holds %d keys, want %d", got, len(reqs))
	}
	runtime.KeepAlive(p)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(reqs))
}

// BenchmarkLimiterMemoryPerKey compares what a controller holds per failing
// key: client-go's limiter alone (its count map), against the probe's
// recording limiter with the reconciler decorator, whose store holds the
// count too (fused) and a full history of 16 attempts.
func BenchmarkLimiterMemoryPerKey(b *testing.B) {
	reqs := benchRequests(100_000)
	errDial := errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
	measure := func(fill func() any) float64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		held := fill()
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(held)
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(reqs))
	}
	cases := []struct {
		name string
		fill func() any
	}{
		{"bare-pq", func() any {
			rl := workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](DefaultBaseDelay, DefaultMaxDelay)
			for _, r := range reqs {
				for range historySize {
					rl.When(r)
				}
			}
			return rl
		}},
		{"recording-pq", func() any {
			p := New("bench", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(true), DisableMetrics: true,
				Clock: clocktesting.NewFakeClock(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))})
			p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
			rl, s := p.RateLimiter(nil), p.store
			for _, r := range reqs {
				for range historySize {
					began := s.now()
					s.started(r, began)
					s.finished(r, reconcile.Result{}, errDial, began)
					rl.When(r)
				}
			}
			return p
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var perKey float64
			for b.Loop() {
				perKey = measure(tc.fill)
			}
			b.ReportMetric(perKey, "B/key")
		})
	}
}
