package instrument

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// countingReconciler fails every reconcile and signals when it has run
// target times.
type countingReconciler struct {
	n      atomic.Int64
	target atomic.Int64
	hit    chan struct{}
}

func (r *countingReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	if r.n.Add(1) == r.target.Load() {
		r.hit <- struct{}{}
	}
	return reconcile.Result{}, errLoad
}

var errLoad = errors.New("dial tcp 10.0.0.7:443: connect: connection refused")

func newCountingReconciler() *countingReconciler {
	return &countingReconciler{hit: make(chan struct{}, 1)}
}

// startLoadController starts a controller with opts, whose reconciler is rec
// (decorated or not), enqueues keys objects once, and returns its stop and a
// run that waits for the next n reconciles and returns their rate.
func startLoadController(b *testing.B, opts controller.TypedOptions[reconcile.Request], rec *countingReconciler, keys int) (stop func(), run func(n int) float64) {
	c, err := controller.NewTypedUnmanaged("load", opts)
	if err != nil {
		b.Fatal(err)
	}
	events := make(chan event.GenericEvent, keys)
	if err := c.Watch(source.Channel(events, &crhandler.EnqueueRequestForObject{})); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	for i := range keys {
		events <- event.GenericEvent{Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "load", Name: fmt.Sprintf("w-%05d", i)}}}
	}
	run = func(n int) float64 {
		start, t0 := rec.n.Load(), time.Now()
		rec.target.Store(start + int64(n))
		select {
		case <-rec.hit:
		case <-time.After(time.Minute):
			b.Fatalf("%d reconciles did not happen within a minute", n)
		}
		return float64(n) / time.Since(t0).Seconds()
	}
	return func() { cancel(); <-done }, run
}

// BenchmarkControllerUnderReaders runs a real controller-runtime controller
// (failing reconciler, 10,000 keys, millisecond backoffs, both queues) for a
// fixed number of reconciles alone, then for as many again while 32 clients
// hammer its endpoint over loopback HTTP (v1/keys?limit=1000, a deep page and
// v1/controllers, without pause but for the Retry-After of a 429, as
// kubectl backoff waits), and reports both throughputs and their ratio
// (goal ≥ 0.9). The readers run in the same process: their own HTTP and
// reading count against the controller too, so a third phase has them read
// only the API index (no list at all): ratio-index-only is what the HTTP
// load costs by itself.
func BenchmarkControllerUnderReaders(b *testing.B) {
	const keys, reconciles, readers = 10_000, 100_000, 32
	for _, pq := range []bool{true, false} {
		b.Run(fmt.Sprintf("priority-queue=%v", pq), func(b *testing.B) {
			var alone, loaded, floor float64
			for b.Loop() {
				alone, loaded, floor = runUnderReaders(b, pq, keys, reconciles, readers)
			}
			b.ReportMetric(alone, "alone-rec/s")
			b.ReportMetric(loaded, "loaded-rec/s")
			b.ReportMetric(loaded/alone, "ratio")
			b.ReportMetric(floor/alone, "ratio-index-only")
		})
	}
	// Side by side at 100,000 keys: one reader polling the page top shows
	// each second, against ten watching it (runUnderWatchers).
	for _, watchers := range []int{0, 10} {
		name := "keys=100000/poller=1"
		if watchers > 0 {
			name = fmt.Sprintf("keys=100000/watchers=%d", watchers)
		}
		b.Run(name, func(b *testing.B) {
			var alone, loaded float64
			for b.Loop() {
				alone, loaded = runUnderWatchers(b, 100_000, 500_000, watchers)
			}
			b.ReportMetric(alone, "alone-rec/s")
			b.ReportMetric(loaded, "loaded-rec/s")
			b.ReportMetric(loaded/alone, "ratio")
		})
	}
}

func runUnderReaders(b *testing.B, pq bool, keys, reconciles, readers int) (alone, loaded, floor float64) {
	reg := NewRegistry()
	probe := New("load", Options{Registry: reg, UsePriorityQueue: ptr.To(pq)})
	rec := newCountingReconciler()
	opts := probe.ControllerOptions(controller.TypedOptions[reconcile.Request]{
		Reconciler:         probe.Reconciler(rec),
		RateLimiter:        NewExponentialLimiter[reconcile.Request](time.Microsecond, time.Millisecond),
		UsePriorityQueue:   ptr.To(pq),
		SkipNameValidation: ptr.To(true),
		Logger:             logr.Discard(),
	})
	stop, run := startLoadController(b, opts, rec, keys)
	defer stop()
	log := logr.Discard()
	srv := httptest.NewServer(NewHandler(HandlerOptions{Registry: reg, Logger: &log}))
	defer srv.Close()

	run(keys) // every key seen once, the queue warm
	alone = run(reconciles)

	withReaders := func(targets ...string) float64 {
		var stop atomic.Bool
		var wg sync.WaitGroup
		for i := range readers {
			wg.Go(func() {
				for j := i; !stop.Load(); j++ {
					req, _ := http.NewRequest(http.MethodGet, srv.URL+api.DefaultPrefix+targets[j%len(targets)], nil)
					req.Header.Set("Accept", "application/json")
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode == http.StatusTooManyRequests {
						time.Sleep(time.Second) // as kubectl backoff does: Retry-After
					}
				}
			})
		}
		defer func() {
			stop.Store(true)
			wg.Wait()
		}()
		return run(reconciles)
	}
	loaded = withReaders("v1/keys?limit=1000", "v1/controllers", "v1/keys?limit=1000&offset=9000&sort=failures")
	floor = withReaders("v1")
	return alone, loaded, floor
}
