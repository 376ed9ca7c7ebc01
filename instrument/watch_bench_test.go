package instrument

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// BenchmarkReadersOfABigController is what readers of a 100,000-key
// controller cost it per refresh (an op is one refresh of every reader:
// one second of top): one reader polling top's page, against 10 watching
// the same query (one computation a tick, shared, and only the changes
// sent). Each refresh, 10 keys fail again, so there is a change to send.
// cpu-ns/op is the process' CPU (server and readers alike, an upper bound
// of the controller's share).
func BenchmarkReadersOfABigController(b *testing.B) {
	const keys, changing = 100_000, 10
	const page = "v1/keys?limit=50&sort=next"
	setup := func(b *testing.B) (*clocktesting.FakeClock, *htProbe, *httptest.Server) {
		clk := clocktesting.NewFakeClock(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
		reg := NewRegistry()
		p := New("big", Options{Registry: reg, Clock: clk, UsePriorityQueue: ptr.To(true)})
		hp := &htProbe{p: p, rl: p.RateLimiter(NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))}
		for i := range keys {
			hp.rl.When(htReq(fmt.Sprintf("ns-%d/obj-%06d", i%100, i)))
		}
		log := logr.Discard()
		srv := httptest.NewServer(NewHandler(HandlerOptions{Registry: reg, Logger: &log, Clock: clk, MaxRequestsPerSecond: -1}))
		b.Cleanup(srv.Close)
		return clk, hp, srv
	}
	change := func(hp *htProbe, round int) {
		for i := range changing {
			hp.rl.When(htReq(fmt.Sprintf("ns-%d/obj-%06d", i, (round*changing+i)%keys)))
		}
	}
	b.Run("poll-1", func(b *testing.B) {
		clk, hp, srv := setup(b)
		round := 0
		cpu := cpuSpent(b)
		for b.Loop() {
			change(hp, round)
			round++
			clk.Step(time.Second)
			req, _ := http.NewRequest(http.MethodGet, srv.URL+api.DefaultPrefix+page, nil)
			req.Header.Set("Accept", "application/json")
			resp, err := srv.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		cpu()
	})
	b.Run("watch-10", func(b *testing.B) {
		clk, hp, srv := setup(b)
		var streams []*bufio.Scanner
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		for range 10 {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+api.DefaultPrefix+page+"&watch=true", nil)
			resp, err := srv.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			defer resp.Body.Close()
			s := bufio.NewScanner(resp.Body)
			s.Buffer(nil, 4<<20)
			if !s.Scan() { // the page
				b.Fatalf("watch: no page: %v", s.Err())
			}
			streams = append(streams, s)
		}
		for !clk.HasWaiters() { // the hub's ticker
			time.Sleep(time.Millisecond)
		}
		round := 0
		cpu := cpuSpent(b)
		for b.Loop() {
			change(hp, round)
			round++
			clk.Step(time.Second)
			for _, s := range streams {
				if !s.Scan() {
					b.Fatalf("watch ended: %v", s.Err())
				}
			}
		}
		cpu()
	})
}

// cpuSpent starts counting the process' CPU time; the function it returns
// reports it per op.
func cpuSpent(b *testing.B) func() {
	b.Helper()
	start := processCPU()
	return func() { b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op") }
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
