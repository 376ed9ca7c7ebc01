package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	utilclock "k8s.io/utils/clock"
)

// Phase is where a Tunnel stands, as the UI shows it.
type Phase string

// The phases of a Tunnel.
const (
	// PhaseConnecting: no forward has been ready yet; an attempt is under way,
	// or waiting until RetryAt after a failed one.
	PhaseConnecting Phase = "connecting"
	// PhaseConnected: the forward is ready at LocalAddr.
	PhaseConnected Phase = "connected"
	// PhaseReconnecting: the forward was lost; the pod is resolved again and
	// a new forward attempted, now or at RetryAt.
	PhaseReconnecting Phase = "reconnecting"
	// PhaseFailed: given up, because retrying cannot help (RBAC refused);
	// LastError says which permission is missing.
	PhaseFailed Phase = "failed"
	// PhaseStopped: Run has returned because its context ended.
	PhaseStopped Phase = "stopped"
)

// ConnState is a snapshot of a Tunnel, plain data for display.
type ConnState struct {
	Phase Phase
	// Pod is the pod forwarded to, "namespace/name", once resolved.
	Pod string
	// LocalAddr is where the forward listens, set only while connected. It
	// changes on every reconnect.
	LocalAddr string
	// LastError is why the last attempt failed or the last forward ended.
	LastError string
	// RetryAt is when the next attempt starts, while waiting for it.
	RetryAt time.Time
	// Attempts counts failures in a row: failed attempts, and the drop of
	// the forward before them. It is 0 while connected.
	Attempts int
	// Since is when the tunnel entered this phase.
	Since time.Time
}

// ResolveFunc names the pod and port to forward to. A Tunnel calls it before
// every attempt, so a restarted or rolled-out pod is followed.
type ResolveFunc func(ctx context.Context) (namespace, pod string, port int, err error)

// TunnelOptions configures a Tunnel. Every field is optional.
type TunnelOptions struct {
	// Backoff is the wait before the first retry; it doubles on each failure.
	// Defaults to 500ms if unset.
	Backoff time.Duration
	// Max caps the wait between retries. A forward that stayed up at least
	// this long resets the wait to Backoff. Defaults to 30s if unset.
	Max time.Duration
	// Clock times the waits and stamps the state. Defaults to the real clock.
	Clock utilclock.WithTicker
	// Opening, when set, is shared by tunnels that must not all open at
	// once: a buffered channel whose capacity is how many may resolve and
	// forward at the same time (a slot is held only while opening, not while
	// connected). Unbounded if nil.
	Opening chan struct{}
}

// Tunnel keeps a port-forward to one target alive: it reconnects with
// exponential backoff when the forward drops or an attempt fails, resolving
// the target's pod again each time. It is safe for concurrent use.
type Tunnel struct {
	cfg     *rest.Config
	resolve ResolveFunc
	opts    TunnelOptions

	mu      sync.Mutex
	state   ConnState
	err     error         // the error that made the tunnel fail, for Addr
	changed chan struct{} // closed and replaced on every state change
	running bool
}

// NewTunnel returns a tunnel to the pod that resolve names; Run connects it.
func NewTunnel(cfg *rest.Config, resolve ResolveFunc, opts TunnelOptions) *Tunnel {
	if opts.Backoff <= 0 {
		opts.Backoff = 500 * time.Millisecond
	}
	if opts.Max <= 0 {
		opts.Max = 30 * time.Second
	}
	if opts.Max < opts.Backoff {
		opts.Max = opts.Backoff
	}
	if opts.Clock == nil {
		opts.Clock = utilclock.RealClock{}
	}
	return &Tunnel{
		cfg: cfg, resolve: resolve, opts: opts,
		state:   ConnState{Phase: PhaseConnecting, Since: opts.Clock.Now()},
		changed: make(chan struct{}),
	}
}

// State returns a snapshot of the tunnel.
func (t *Tunnel) State() ConnState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

// Addr waits until the tunnel is connected and returns its local address,
// "127.0.0.1:NNNN". It returns an error if the tunnel failed or stopped, or
// ctx ended first.
func (t *Tunnel) Addr(ctx context.Context) (string, error) {
	for {
		t.mu.Lock()
		st, err, changed := t.state, t.err, t.changed
		t.mu.Unlock()
		switch st.Phase {
		case PhaseConnected:
			return st.LocalAddr, nil
		case PhaseFailed:
			return "", err
		case PhaseStopped:
			return "", fmt.Errorf("port-forward %s: tunnel stopped", st.Pod)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			if st.LastError != "" {
				return "", fmt.Errorf("port-forward %s: %w (last error: %s)", st.Pod, context.Cause(ctx), st.LastError)
			}
			return "", fmt.Errorf("port-forward %s: %w", st.Pod, context.Cause(ctx))
		}
	}
}

// Run keeps the tunnel connected until ctx is done, then closes the forward
// and returns nil. It returns early, with the error, only when retrying
// cannot help: a *PermissionError from Forward, or a Forbidden error from
// the API server, as resolve may return.
// Run may be called once at a time.
func (t *Tunnel) Run(ctx context.Context) error {
	t.mu.Lock()
	if t.running {
		t.mu.Unlock()
		return errors.New("tunnel: Run is already running")
	}
	t.running = true
	t.err = nil
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.running = false
		t.mu.Unlock()
	}()

	clk := t.opts.Clock
	wait := t.opts.Backoff
	for {
		fw, err := t.connect(ctx)
		if err == nil {
			start := clk.Now()
			t.update(func(s *ConnState) {
				*s = ConnState{Phase: PhaseConnected, Pod: s.Pod, LocalAddr: fw.LocalAddr, LastError: s.LastError}
			})
			select {
			case <-ctx.Done():
				fw.Close()
				t.stop()
				return nil
			case <-fw.Done():
				err = fw.Err()
				if err == nil {
					err = errors.New("port-forward ended")
				}
			}
			// A forward that lasted resets the wait; one that drops at
			// once (say the pod's port refuses) keeps it growing.
			if clk.Since(start) >= t.opts.Max {
				wait = t.opts.Backoff
			}
		}
		if ctx.Err() != nil {
			t.stop()
			return nil
		}
		if permanent(err) {
			t.update(func(s *ConnState) {
				s.Phase, s.LocalAddr, s.LastError, s.RetryAt = PhaseFailed, "", err.Error(), time.Time{}
				s.Attempts++
				t.err = err // update holds the lock: Addr sees both at once
			})
			return err
		}

		retryAt := clk.Now().Add(wait)
		t.update(func(s *ConnState) {
			if s.Phase == PhaseConnected {
				s.Phase = PhaseReconnecting
			}
			s.LocalAddr, s.LastError, s.RetryAt = "", err.Error(), retryAt
			s.Attempts++
		})
		timer := clk.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			t.stop()
			return nil
		case <-timer.C():
		}
		t.update(func(s *ConnState) { s.RetryAt = time.Time{} })
		wait = min(2*wait, t.opts.Max)
	}
}

// permanent reports an RBAC refusal: a *PermissionError from Forward, or any
// Forbidden from the API server, such as resolve's pod lookup. Retrying
// cannot help until someone changes the RBAC.
func permanent(err error) bool {
	var perm *PermissionError
	return errors.As(err, &perm) || apierrors.IsForbidden(err)
}

// connect resolves the pod and forwards to it.
func (t *Tunnel) connect(ctx context.Context) (*Forwarding, error) {
	if t.opts.Opening != nil {
		select {
		case t.opts.Opening <- struct{}{}:
			defer func() { <-t.opts.Opening }()
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
	ns, pod, port, err := t.resolve(ctx)
	if err != nil {
		return nil, fmt.Errorf("resolve pod: %w", err)
	}
	if name := ns + "/" + pod; name != t.State().Pod {
		t.update(func(s *ConnState) { s.Pod = name })
	}
	return Forward(ctx, t.cfg, ns, pod, port)
}

// stop records that Run has returned.
func (t *Tunnel) stop() {
	t.update(func(s *ConnState) {
		s.Phase, s.LocalAddr, s.RetryAt = PhaseStopped, "", time.Time{}
	})
}

// update changes the state under the lock (change runs holding it), stamps
// Since when the phase changes, and wakes Addr's waiters.
func (t *Tunnel) update(change func(*ConnState)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	before := t.state.Phase
	change(&t.state)
	if t.state.Phase != before || t.state.Since.IsZero() {
		t.state.Since = t.opts.Clock.Now()
	}
	close(t.changed)
	t.changed = make(chan struct{})
}
