package instrument

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// DefaultAddr is where Server listens unless told otherwise: loopback inside
// the pod, so only port-forward (and so RBAC on pods/portforward) reaches it.
const DefaultAddr = "127.0.0.1:8082"

// ServerRunnable serves the endpoint on its own listener. It is a
// controller-runtime Runnable that runs on every replica, leader or not, so a
// standby can say that it is one.
type ServerRunnable struct {
	addr    string
	handler http.Handler

	mu sync.Mutex
	ln net.Listener
}

// Server returns a runnable serving Handler() on addr (DefaultAddr if empty):
//
//	mgr.Add(instrument.Server(""))
func Server(addr string) *ServerRunnable { return NewServer(addr, Handler()) }

// NewServer returns a runnable serving h on addr (DefaultAddr if empty).
func NewServer(addr string, h http.Handler) *ServerRunnable {
	if addr == "" {
		addr = DefaultAddr
	}
	return &ServerRunnable{addr: addr, handler: h}
}

// NeedLeaderElection is false: the endpoint serves on standby replicas too.
func (s *ServerRunnable) NeedLeaderElection() bool { return false }

// Listen binds the address now, so that Addr is known before Start (useful with
// port 0). Start calls it if needed.
func (s *ServerRunnable) Listen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		return nil
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("backoff endpoint: listen on %s: %w", s.addr, err)
	}
	s.ln = ln
	return nil
}

// Addr is the bound address, or nil before Listen.
func (s *ServerRunnable) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Start serves until ctx is done, then shuts down gracefully. It logs the
// address it listens on. It never stops the manager: a debugging aid must
// not take the controller down, so an address it cannot listen on (another
// instrumented controller on this host has the default) is logged, with how
// to pick another, and Start returns nil; so is a server that fails later.
// Its logger is the context's (the manager's), as controller-runtime's own
// servers do.
func (s *ServerRunnable) Start(ctx context.Context) error {
	log := ctrllog.FromContext(ctx).WithName("backoff")
	if err := s.Listen(); err != nil {
		log.Error(err, "backoff endpoint not served; the controller runs on without it. "+
			"Another process (another instrumented controller on this host?) may hold the address: "+
			"give instrument.Server another one, e.g. instrument.Server(\"127.0.0.1:8083\"), "+
			"and read the endpoint at that address", "addr", s.addr)
		return nil
	}
	log.Info("backoff endpoint listening", "addr", s.Addr().String(), "prefix", DefaultPrefix)
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       90 * time.Second,
		// Read a long URL in full so that the handler answers it in the
		// documented shape (414); past this, net/http answers 431 in plain text.
		MaxHeaderBytes: query.MaxHeaderBytes,
	}
	if w, ok := s.handler.(interface{ CloseWatches() }); ok {
		srv.RegisterOnShutdown(w.CloseWatches) // a watch would hold the shutdown
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.ln) }()
	select {
	case err := <-errc:
		log.Error(err, "backoff endpoint stopped; the controller runs on without it", "addr", s.Addr().String())
		return nil
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
