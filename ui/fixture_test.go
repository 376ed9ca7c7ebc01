package ui

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/utils/ptr"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// fixture is a real endpoint: one instrumented controller "widgets" on a
// per-item exponential limiter slow enough (1 minute base) that nothing
// changes during a test unless the test changes it.
type fixture struct {
	probe   *instrument.TypedProbe[string]
	limiter interface{ When(string) time.Duration }
	handler http.Handler
	addr    string

	mu  sync.Mutex
	srv *httptest.Server
	// bytes counts response body bytes read by the session's client.
	bytes atomic.Int64
	// calls counts the session's requests per endpoint path ("v1/keys");
	// answered, those whose answer the session has read and closed.
	calls, answered sync.Map // string → *atomic.Int64
}

// callsTo is how many requests the session has sent to path so far.
func (f *fixture) callsTo(path string) int64 { return count(&f.calls, path) }

// answersFrom is how many of those requests have been answered in full.
func (f *fixture) answersFrom(path string) int64 { return count(&f.answered, path) }

func count(m *sync.Map, path string) int64 {
	if n, ok := m.Load(path); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

const fixtureError = "sync inventory: dial tcp 10.0.0.%d:443: connect: connection refused"

func newFixture(tb testing.TB, keys int, readOnly bool) *fixture {
	tb.Helper()
	reg := instrument.NewRegistry()
	p := instrument.NewTyped[string]("widgets", instrument.TypedOptions[string]{Registry: reg, UsePriorityQueue: ptr.To(true), MaxKeys: max(keys, 10)})
	f := &fixture{probe: p, limiter: p.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))}
	for i := range keys {
		for range i%3 + 1 {
			f.fail(fmt.Sprintf("demo/widget-%06d", i), fmt.Sprintf(fixtureError, i%250))
		}
	}
	discard := logr.Discard()
	f.handler = instrument.NewHandler(instrument.HandlerOptions{Registry: reg, ReadOnly: readOnly, Logger: &discard})
	f.srv = httptest.NewServer(f.handler)
	f.addr = f.srv.Listener.Addr().String()
	tb.Cleanup(f.stop)
	return f
}

// fail records a failed reconcile of key and its backoff.
func (f *fixture) fail(key, msg string) {
	_ = f.probe.Track(key, func() error { return errors.New(msg) })
	f.limiter.When(key)
}

// session is a --addr session whose transport counts the bytes it reads.
func (f *fixture) session(tb testing.TB) *inspector.Session {
	tb.Helper()
	s, err := inspector.Direct("http://"+f.addr, &countingTransport{base: http.DefaultTransport, n: &f.bytes, calls: &f.calls, answered: &f.answered})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// stop takes the endpoint away: connections are refused.
func (f *fixture) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.srv != nil {
		f.srv.Close()
		f.srv = nil
	}
}

// restart brings the endpoint back on the same address.
func (f *fixture) restart(tb testing.TB) {
	tb.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		tb.Fatalf("listen again on %s: %v", f.addr, err)
	}
	f.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: f.handler}}
	f.srv.Start()
}

// countingTransport counts the response body bytes read through it.
type countingTransport struct {
	base            http.RoundTripper
	n               *atomic.Int64
	calls, answered *sync.Map
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	path := strings.TrimPrefix(r.URL.Path, api.DefaultPrefix)
	add(c.calls, path)
	resp, err := c.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &countingBody{ReadCloser: resp.Body, n: c.n, closed: func() { add(c.answered, path) }}
	return resp, nil
}

// add counts one more for path in m, if there is an m.
func add(m *sync.Map, path string) {
	if m != nil {
		n, _ := m.LoadOrStore(path, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
	}
}

type countingBody struct {
	io.ReadCloser
	n      *atomic.Int64
	closed func()
	once   sync.Once
}

// Close counts the answer as read.
func (b *countingBody) Close() error {
	b.once.Do(b.closed)
	return b.ReadCloser.Close()
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}
