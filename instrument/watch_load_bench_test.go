package instrument

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// watchedPage is the page top shows, as a poller lists it and a watcher
// watches it: the first 1,000 keys in top's order.
const watchedPage = "v1/keys?limit=1000&sort=attention"

// runUnderWatchers runs a real controller-runtime controller (priority
// queue, failing reconciler, keys keys) for reconciles alone, then for as
// many again with readers on its endpoint over loopback: with watchers 0,
// one reader polling watchedPage every second as top does; otherwise that
// many watching it (v1/keys?watch=true, one hub, a computation a second).
func runUnderWatchers(b *testing.B, keys, reconciles, watchers int) (alone, loaded float64) {
	reg := NewRegistry()
	probe := New("load", Options{Registry: reg, UsePriorityQueue: ptr.To(true)})
	rec := newCountingReconciler()
	opts := probe.ControllerOptions(controller.TypedOptions[reconcile.Request]{
		Reconciler:         probe.Reconciler(rec),
		RateLimiter:        NewExponentialLimiter[reconcile.Request](time.Microsecond, time.Millisecond),
		UsePriorityQueue:   ptr.To(true),
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

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	get := func(target string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+api.DefaultPrefix+target, nil)
		req.Header.Set("Accept", "application/json")
		return http.DefaultClient.Do(req)
	}
	if watchers == 0 {
		wg.Go(func() {
			t := time.NewTicker(time.Second) // top's refresh
			defer t.Stop()
			for {
				if resp, err := get(watchedPage); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
		})
	}
	opened := make(chan struct{}, watchers)
	for range watchers {
		wg.Go(func() {
			resp, err := get(watchedPage + "&watch=true")
			if err != nil {
				b.Errorf("watch: %v", err)
				opened <- struct{}{}
				return
			}
			defer resp.Body.Close()
			lines := bufio.NewScanner(resp.Body)
			lines.Buffer(nil, 16<<20)
			if resp.StatusCode != http.StatusOK || !lines.Scan() {
				b.Errorf("watch: %s, no page", resp.Status)
			}
			opened <- struct{}{}
			for lines.Scan() {
			}
		})
	}
	for range watchers {
		<-opened // every watch has its page: what follows is the ticks'
	}
	loaded = run(reconciles)
	cancel()
	wg.Wait()
	return alone, loaded
}
