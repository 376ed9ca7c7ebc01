package instrument

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// benchFailingProbe is a probe on the real clock tracking n failing keys
// whose errors are errLen bytes long, distinct errors of them (interned, as
// the store keeps them).
func benchFailingProbe(b *testing.B, n, errLen, distinct int) (*Probe, []reconcile.Request) {
	b.Helper()
	p := benchRealProbe(true, true)
	p.store.maxKeys = n
	rl := p.RateLimiter(nil)
	errs := make([]error, distinct)
	for i := range errs {
		head := fmt.Sprintf("sync widget: dependency %d failed: ", i)
		errs[i] = errors.New(head + strings.Repeat("connection refused; ", errLen/20+1)[:errLen-len(head)])
	}
	reqs := benchRequests(n)
	for i, r := range reqs {
		_ = p.Track(r, func() error { return errs[i%distinct] })
		rl.When(r)
	}
	return p, reqs
}

// benchServe serves target on h, which must answer 200. The body goes
// nowhere, as to a socket: what is allocated is the server's own.
func benchServe(b *testing.B, h http.Handler, target string) {
	w := &discardWriter{header: http.Header{}}
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil)
	req.Header.Set("Accept", "application/json")
	h.ServeHTTP(w, req)
	if w.code != http.StatusOK {
		b.Fatalf("GET %s: status = %d, want 200", target, w.code)
	}
}

// unpaced lifts a handler's pacing, so that a benchmark measures what one
// read costs, not the rests the pacer makes a reader in a loop take (which
// BenchmarkControllerUnderReaders measures, from the controller's side).
const unpaced = -1

// discardWriter is an http.ResponseWriter that keeps only the status.
type discardWriter struct {
	header http.Header
	code   int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkKeysDeepPage: the first page, the deepest of the first window,
// the last page, and a page past the window with a continue token, at
// 10,000 and 100,000 keys. The
// bytes allocated per request stay flat: the selection keeps at most 10,000
// small rows, not the keys.
func BenchmarkKeysDeepPage(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		p, reqs := benchFailingProbe(b, n, 100, 100)
		h := NewHandler(HandlerOptions{Registry: benchRegistryOf(p), Reuse: -1, MaxRequestsPerSecond: unpaced})
		keys := make([]string, len(reqs))
		for i, r := range reqs {
			keys[i] = r.String()
		}
		slices.Sort(keys)
		deep := (&query.Cursor{Sort: api.SortKey, Controller: p.Name(), Key: keys[n-1001], Scope: query.ScopeOf("", api.Filter{})}).Encode()
		for _, c := range []struct{ name, query string }{
			{"first", "sort=next&limit=1000"},
			{"offset=9000", "sort=next&limit=1000&offset=9000"},
			{"last-page", fmt.Sprintf("sort=next&limit=1000&offset=%d", n-1000)},
			{"continue", "sort=key&limit=1000&continue=" + url.QueryEscape(deep)},
		} {
			b.Run(fmt.Sprintf("keys=%d/%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					benchServe(b, h, api.DefaultPrefix+"v1/keys?"+c.query)
				}
			})
		}
	}
}

// BenchmarkListsAt100k: v1/errors beside v1/keys over the same 100,000 keys.
func BenchmarkListsAt100k(b *testing.B) {
	p, _ := benchFailingProbe(b, 100_000, 200, 1000)
	h := NewHandler(HandlerOptions{Registry: benchRegistryOf(p), Reuse: -1, MaxRequestsPerSecond: unpaced})
	for _, c := range []struct{ name, target string }{
		{"keys", "v1/keys?sort=next&limit=100"},
		{"keys-attention", "v1/keys?sort=attention&limit=100"},
		{"errors", "v1/errors"},
		{"errors-backoff", "v1/errors?state=backoff"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchServe(b, h, api.DefaultPrefix+c.target)
			}
		})
	}
}

// BenchmarkWorstFilter runs the costliest regular expressions the endpoint
// accepts over 100,000 keys with 4 KiB errors (1,000 distinct) while a
// goroutine keeps calling the limiter's When, as the controller does. Each
// request ends within about a second: answered, or refused with a 400 once
// its matching has taken a second. It reports how many were refused, and
// the When latencies (p99, max); "none" is the same When loop with no
// request, side by side. On a shared machine max is mostly scheduling; the
// lock a When can wait on is held only for one shard's copy
// (BenchmarkShardCopy).
func BenchmarkWorstFilter(b *testing.B) {
	p, reqs := benchFailingProbe(b, 100_000, 4096, 1000)
	h := NewHandler(HandlerOptions{Registry: benchRegistryOf(p), Reuse: -1, MaxRequestsPerSecond: unpaced})
	rl := p.RateLimiter(nil)
	// Each worst case as q; then a costly q that every key passes, so that
	// a costly error pattern runs too: the two share the request's
	// one-second budget.
	type worst struct{ q, err string }
	var cases []worst
	for _, expr := range []string{"", `(.*){9}#`, `.{0,11}#`, `(?i)(a|b)?(c|d)?(e|f)?(g|h)?x`, `(?i)refused;\s*x`} {
		cases = append(cases, worst{q: expr})
	}
	cases = append(cases, worst{q: `(.*){9}`, err: `(.*){9}#`})
	for _, c := range cases {
		name := "none"
		if c.q != "" {
			name = c.q
			if c.err != "" {
				name += "+error"
			}
			if err := query.CheckPattern("q", "~"+c.q); err != nil {
				b.Fatalf("%s is refused, want it accepted as a worst case: %v", c.q, err)
			}
		}
		b.Run(name, func(b *testing.B) {
			var stop atomic.Bool
			var lat []time.Duration
			var wg sync.WaitGroup
			wg.Go(func() {
				for i := 0; !stop.Load(); i++ {
					t0 := time.Now()
					rl.When(reqs[i%len(reqs)])
					lat = append(lat, time.Since(t0))
				}
			})
			target := api.DefaultPrefix + "v1/keys?limit=100&q=" + url.QueryEscape("~"+c.q)
			if c.err != "" {
				target += "&error=" + url.QueryEscape("~"+c.err)
			}
			refused := 0
			for b.Loop() {
				if c.q == "" {
					time.Sleep(200 * time.Millisecond) // the When loop alone, for comparison
					continue
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil))
				switch {
				case rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), "took over"):
					refused++
				case rec.Code != http.StatusOK:
					b.Fatalf("status = %d: %s", rec.Code, rec.Body)
				}
			}
			stop.Store(true)
			wg.Wait()
			slices.Sort(lat)
			b.ReportMetric(float64(refused)/float64(b.N), "refused/op")
			b.ReportMetric(float64(lat[len(lat)*99/100])/1e3, "p99When-µs")
			b.ReportMetric(float64(lat[len(lat)-1])/1e3, "maxWhen-µs")
		})
	}
}

// BenchmarkShardCopy is the time a list request holds shard locks: a scan
// of 100,000 keys copies 64 shards, one lock at a time, so a When waits at
// most for one shard's copy (reported as µs/shard).
func BenchmarkShardCopy(b *testing.B) {
	p, _ := benchFailingProbe(b, 100_000, 4096, 1000)
	var buf []query.Item
	ctx := b.Context()
	p.store.maybeSweep(p.store.now()) // not part of a copy
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = p.store.scan(ctx, p.store.now(), buf, func([]query.Item) error { return nil })
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/shardCount/1e3, "µs/shard")
}
