package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/portforward"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster/clustertest"
)

// testPodPort is the pod port forwarded to, the endpoint's default.
const testPodPort = 8082

// newPFEndpoint starts a real instrument endpoint with one controller, "widget":
// what the forwarded pod port serves.
func newPFEndpoint(t *testing.T) string {
	t.Helper()
	reg := instrument.NewRegistry()
	instrument.New("widget", instrument.Options{Registry: reg})
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// pfControllers asks the endpoint at addr for its controllers, over a fresh
// connection each time so a dropped forward is not hidden by a pooled one.
func pfControllers(t *testing.T, addr string) []string {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get("http://" + addr + api.DefaultPrefix + "v1/controllers")
	if err != nil {
		t.Fatalf("GET through the forward: %v", err)
	}
	defer resp.Body.Close() //nolint:errcheck
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET through the forward: status %s", resp.Status)
	}
	var list api.ControllerList
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatalf("decode v1/controllers: %v", err)
	}
	if list.ServerTime.IsZero() {
		t.Errorf("v1/controllers has no serverTime")
	}
	var names []string
	for _, c := range list.Controllers {
		names = append(names, c.Name)
	}
	return names
}

// pfEventually polls cond until it holds, failing the test after 10s.
func pfEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// pfCtx is a context that ends with the test, bounded in time.
func pfCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestForward(t *testing.T) {
	tests := []struct {
		name      string
		websocket bool
		want      []clustertest.Request
	}{
		// A current API server: the websocket tunnel is taken, no fallback.
		{"websocket tunnel", true, []clustertest.Request{{Pod: "demo/ctrl-0", Websocket: true}}},
		// An older one refuses the websocket upgrade: SPDY fallback.
		{"spdy fallback", false, []clustertest.Request{{Pod: "demo/ctrl-0", Websocket: true}, {Pod: "demo/ctrl-0", Websocket: false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0")
			s.Set(func(s *clustertest.PortForwardServer) { s.Websocket = tt.websocket })

			fw, err := Forward(pfCtx(t), s.Config(), "demo", "ctrl-0", testPodPort)
			if err != nil {
				t.Fatalf("Forward: %v", err)
			}
			defer fw.Close()
			if host, _, _ := net.SplitHostPort(fw.LocalAddr); host != "127.0.0.1" {
				t.Errorf("LocalAddr = %q, want 127.0.0.1:PORT", fw.LocalAddr)
			}
			if e, a := []string{"widget"}, pfControllers(t, fw.LocalAddr); !slices.Equal(e, a) {
				t.Errorf("controllers = %v, want %v", a, e)
			}
			// Two requests over the same forward: it multiplexes.
			pfControllers(t, fw.LocalAddr)
			if e, a := tt.want, s.Seen(); !slices.Equal(e, a) {
				t.Errorf("requests = %v, want %v", a, e)
			}
		})
	}
}

func TestForwardRefused(t *testing.T) {
	tests := []struct {
		name      string
		websocket bool
		forbidden bool
		pod       string
		check     func(t *testing.T, err error)
	}{
		{"forbidden over websocket", true, true, "ctrl-0", checkPFForbidden},
		{"forbidden over spdy", false, true, "ctrl-0", checkPFForbidden},
		{"pod not found", true, false, "ctrl-9", func(t *testing.T, err error) {
			if !errors.Is(err, ErrPodNotFound) || !apierrors.IsNotFound(err) {
				t.Errorf("err = %v, want ErrPodNotFound and a NotFound status", err)
			}
			if e, a := `port-forward demo/ctrl-9: pod not found: `, err.Error(); !strings.HasPrefix(a, e) {
				t.Errorf("err = %q, want it to start with %q", a, e)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0")
			s.Set(func(s *clustertest.PortForwardServer) { s.Websocket, s.Forbidden = tt.websocket, tt.forbidden })
			fw, err := Forward(pfCtx(t), s.Config(), "demo", tt.pod, testPodPort)
			if err == nil {
				fw.Close()
				t.Fatal("Forward succeeded, want an error")
			}
			tt.check(t, err)
		})
	}
}

func checkPFForbidden(t *testing.T, err error) {
	t.Helper()
	var perm *PermissionError
	if !errors.As(err, &perm) {
		t.Fatalf("err = %v (%T), want a *PermissionError", err, err)
	}
	if e, a := `port-forward demo/ctrl-0: forbidden: you need "create" on "pods/portforward" in namespace "demo"`, err.Error(); e != a {
		t.Errorf("err = %q, want %q", a, e)
	}
	if perm.Verb != "create" || perm.Resource != "pods/portforward" || perm.Namespace != "demo" {
		t.Errorf("permission = %q %q %q, want create pods/portforward demo", perm.Verb, perm.Resource, perm.Namespace)
	}
	if !strings.Contains(perm.Message, `User "alice" cannot create`) {
		t.Errorf("Message = %q, want the API server's explanation", perm.Message)
	}
	if !apierrors.IsForbidden(err) {
		t.Errorf("apierrors.IsForbidden(%v) = false", err)
	}
}

func TestForwardLostConnection(t *testing.T) {
	s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0")
	s.Set(func(s *clustertest.PortForwardServer) { s.Websocket = true })
	fw, err := Forward(pfCtx(t), s.Config(), "demo", "ctrl-0", testPodPort)
	if err != nil {
		t.Fatalf("Forward: %v", err)
	}
	defer fw.Close()
	if err := fw.Err(); err != nil {
		t.Errorf("Err while running = %v, want nil", err)
	}
	s.Drop()
	select {
	case <-fw.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("forward still running after the connection dropped")
	}
	if err := fw.Err(); !errors.Is(err, portforward.ErrLostConnectionToPod) {
		t.Errorf("Err = %v, want ErrLostConnectionToPod", err)
	}
}

func TestForwardClose(t *testing.T) {
	s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0")
	fw, err := Forward(pfCtx(t), s.Config(), "demo", "ctrl-0", testPodPort)
	if err != nil {
		t.Fatalf("Forward: %v", err)
	}
	fw.Close()
	<-fw.Done()
	if err := fw.Err(); err != nil {
		t.Errorf("Err after Close = %v, want nil", err)
	}
	if conn, err := net.Dial("tcp", fw.LocalAddr); err == nil {
		conn.Close() //nolint:errcheck
		t.Errorf("%s still accepts connections after Close", fw.LocalAddr)
	}
}

// pfResolver is a ResolveFunc whose pod the test changes, counting calls.
type pfResolver struct {
	mu    sync.Mutex
	pod   string
	calls int
}

func (r *pfResolver) resolve(context.Context) (string, string, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	return "demo", r.pod, testPodPort, nil
}

func (r *pfResolver) set(pod string) { r.mu.Lock(); r.pod = pod; r.mu.Unlock() }
func (r *pfResolver) count() int     { r.mu.Lock(); defer r.mu.Unlock(); return r.calls }

// runPFTunnel starts tun.Run and returns a stop that cancels it and returns
// Run's result.
func runPFTunnel(t *testing.T, tun *Tunnel) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- tun.Run(ctx) }()
	t.Cleanup(cancel)
	return func() error { cancel(); return <-errc }
}

func TestTunnelReconnects(t *testing.T) {
	s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0", "demo/ctrl-1")
	s.Set(func(s *clustertest.PortForwardServer) { s.Websocket = true })
	fc := clocktesting.NewFakeClock(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC))
	r := &pfResolver{pod: "ctrl-0"}
	tun := NewTunnel(s.Config(), r.resolve, TunnelOptions{Backoff: time.Second, Clock: fc})
	stop := runPFTunnel(t, tun)

	addr, err := tun.Addr(pfCtx(t))
	if err != nil {
		t.Fatalf("Addr: %v", err)
	}
	pfControllers(t, addr)
	if st := tun.State(); st.Phase != PhaseConnected || st.Pod != "demo/ctrl-0" || st.LocalAddr != addr || st.Attempts != 0 {
		t.Errorf("state = %+v, want connected to demo/ctrl-0 at %s", st, addr)
	}

	// The pod is replaced and the connection drops: the tunnel waits out
	// the backoff, resolves again and follows the new pod.
	r.set("ctrl-1")
	s.Drop()
	pfEventually(t, "the tunnel to wait for its retry", fc.HasWaiters)
	st := tun.State()
	if e, a := PhaseReconnecting, st.Phase; e != a {
		t.Errorf("phase = %q, want %q", a, e)
	}
	if e, a := fc.Now().Add(time.Second), st.RetryAt; !e.Equal(a) {
		t.Errorf("RetryAt = %v, want %v (now + Backoff)", a, e)
	}
	if !strings.Contains(st.LastError, portforward.ErrLostConnectionToPod.Error()) || st.LocalAddr != "" || st.Attempts != 1 {
		t.Errorf("state = %+v, want lost connection, no LocalAddr, 1 attempt", st)
	}
	if _, err := tun.Addr(pfCanceledCtx()); err == nil {
		t.Errorf("Addr while reconnecting returned no error with a done context")
	}

	fc.Step(time.Second)
	pfEventually(t, "the tunnel to reconnect", func() bool { return tun.State().Phase == PhaseConnected })
	st = tun.State()
	if st.Pod != "demo/ctrl-1" || st.Attempts != 0 || !st.RetryAt.IsZero() || !st.Since.Equal(fc.Now()) {
		t.Errorf("state = %+v, want connected to demo/ctrl-1 since now", st)
	}
	if e, a := []string{"widget"}, pfControllers(t, st.LocalAddr); !slices.Equal(e, a) {
		t.Errorf("controllers after reconnect = %v, want %v", a, e)
	}
	if e, a := 2, r.count(); e != a {
		t.Errorf("resolve called %d times, want %d", a, e)
	}
	if got := s.Seen(); got[len(got)-1].Pod != "demo/ctrl-1" {
		t.Errorf("last request went to %s, want demo/ctrl-1", got[len(got)-1].Pod)
	}

	if err := stop(); err != nil {
		t.Errorf("Run = %v, want nil after cancel", err)
	}
	if e, a := PhaseStopped, tun.State().Phase; e != a {
		t.Errorf("phase after Run = %q, want %q", a, e)
	}
}

func TestTunnelBacksOffUntilPodExists(t *testing.T) {
	s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort)
	fc := clocktesting.NewFakeClock(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC))
	r := &pfResolver{pod: "ctrl-0"}
	tun := NewTunnel(s.Config(), r.resolve, TunnelOptions{Backoff: time.Second, Max: 3 * time.Second, Clock: fc})
	runPFTunnel(t, tun)

	// 404s: the waits double up to Max, and the phase stays connecting.
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second} {
		pfEventually(t, "a retry to be scheduled", fc.HasWaiters)
		st := tun.State()
		if st.Phase != PhaseConnecting || st.Attempts != i+1 || !st.RetryAt.Equal(fc.Now().Add(wait)) {
			t.Fatalf("attempt %d: state = %+v, want connecting, retry in %v", i+1, st, wait)
		}
		if !strings.Contains(st.LastError, "pod not found") {
			t.Errorf("LastError = %q, want pod not found", st.LastError)
		}
		if i == 2 {
			s.Set(func(s *clustertest.PortForwardServer) { s.Pods["demo/ctrl-0"] = true })
		}
		fc.Step(wait)
	}
	addr, err := tun.Addr(pfCtx(t))
	if err != nil {
		t.Fatalf("Addr: %v", err)
	}
	pfControllers(t, addr)
}

func TestTunnelForbidden(t *testing.T) {
	s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0")
	s.Set(func(s *clustertest.PortForwardServer) { s.Forbidden = true })
	r := &pfResolver{pod: "ctrl-0"}
	tun := NewTunnel(s.Config(), r.resolve, TunnelOptions{Clock: clocktesting.NewFakeClock(time.Now())})

	err := tun.Run(pfCtx(t)) // returns by itself: no retry can help
	checkPFForbidden(t, err)
	st := tun.State()
	if st.Phase != PhaseFailed || st.Attempts != 1 || st.LastError != err.Error() {
		t.Errorf("state = %+v, want failed after 1 attempt with %q", st, err)
	}
	if _, err := tun.Addr(pfCtx(t)); err == nil {
		t.Error("Addr of a failed tunnel returned no error")
	} else {
		checkPFForbidden(t, err)
	}
}

func TestTunnelResolveForbidden(t *testing.T) {
	s := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort, "demo/ctrl-0")
	denied := apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "ctrl-0", errors.New(`User "alice" cannot get resource "pods"`))
	resolve := func(context.Context) (string, string, int, error) { return "", "", 0, denied }
	tun := NewTunnel(s.Config(), resolve, TunnelOptions{Clock: clocktesting.NewFakeClock(time.Now())})

	if err := tun.Run(pfCtx(t)); !apierrors.IsForbidden(err) {
		t.Errorf("Run = %v, want the Forbidden error from resolve", err)
	}
	if st := tun.State(); st.Phase != PhaseFailed || !strings.Contains(st.LastError, "cannot get resource") {
		t.Errorf("state = %+v, want failed with resolve's error", st)
	}
	if n := len(s.Seen()); n != 0 {
		t.Errorf("%d port-forward requests, want none before the pod is resolved", n)
	}
}

func pfCanceledCtx() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
