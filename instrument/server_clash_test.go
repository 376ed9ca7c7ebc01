package instrument

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// logLines is a goroutine-safe logger that keeps its lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logger() logr.Logger {
	return funcr.New(func(prefix, args string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.lines = append(l.lines, prefix+" "+args)
	}, funcr.Options{})
}

// waitLine waits until a line holds every one of subs, and returns it.
func (l *logLines) waitLine(t *testing.T, what string, subs ...string) string {
	t.Helper()
	var found string
	eventually(t, waitFor, func() (bool, string) {
		l.mu.Lock()
		defer l.mu.Unlock()
	lines:
		for _, line := range l.lines {
			for _, s := range subs {
				if !strings.Contains(line, s) {
					continue lines
				}
			}
			found = line
			return true, ""
		}
		return false, fmt.Sprintf("no line says %s (%q); log:\n%s", what, subs, strings.Join(l.lines, "\n"))
	})
	return found
}

// TestTwoManagersOnOneAddress runs two instrumented managers whose endpoints
// ask for the same address, as two local operators on the default one do:
// the first serves and says where; the second says the address is taken and
// what to do, and both keep reconciling.
func TestTwoManagersOnOneAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	free := ln.Addr().String()
	ln.Close()
	for _, c := range []struct{ name, addr string }{{"default", ""}, {"given", free}} {
		t.Run(c.name, func(t *testing.T) {
			want := c.addr
			if want == "" {
				want = DefaultAddr
				// The default is one fixed port on a shared host: if another
				// process already holds it, the first manager cannot be first.
				if ln, err := net.Listen("tcp", DefaultAddr); err != nil {
					t.Skipf("%s is held by another process: %v", DefaultAddr, err)
				} else {
					ln.Close()
				}
			}
			start := func(name string) (*managerRun, *logLines) {
				reg := NewRegistry()
				p := New(name, Options{Registry: reg, DisableMetrics: true})
				logs := &logLines{}
				// The manager's runnables find their logger in the base
				// context, as controller-runtime's own servers do.
				mgr := newManager(t, config.Controller{}, logr.Discard(), func(o *manager.Options) {
					o.BaseContext = func() context.Context { return ctrllog.IntoContext(context.Background(), logs.logger()) }
				})
				m := addController(t, mgr, name, p, controller.Options{})
				if err := mgr.Add(NewServer(c.addr, NewHandler(HandlerOptions{Registry: reg}))); err != nil {
					t.Fatalf("mgr.Add: %v", err)
				}
				m.start()
				return m, logs
			}
			first, firstLog := start("first")
			firstLog.waitLine(t, "where the endpoint listens", "backoff endpoint listening", want)
			second, secondLog := start("second")
			clash := secondLog.waitLine(t, "the clash", "backoff endpoint not served", want, "address already in use")
			for _, s := range []string{"runs on without it", "instrument.Server(", "read the endpoint at that address"} {
				if !strings.Contains(clash, s) {
					t.Errorf("the clash's line does not say %q: %s", s, clash)
				}
			}

			// Both reconcile on; the second's probe records, its endpoint
			// aside; the first's endpoint answers.
			for i, m := range []*managerRun{first, second, first, second} {
				m.reconcile(fmt.Sprintf("default/fail-%d", i))
			}
			resp, err := http.Get("http://" + want + DefaultPrefix + "v1/controllers")
			if err != nil {
				t.Fatalf("the first's endpoint: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("the first's endpoint: %s", resp.Status)
			}
			for _, m := range []*managerRun{first, second} {
				select {
				case err := <-m.done:
					t.Fatalf("a manager exited: %v", err)
				case <-time.After(0):
				}
			}
		})
	}
}
