package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// followWorld is a real endpoint whose watches tick on a fake clock, with
// a controller "widget"; noWatch makes its capabilities an older
// endpoint's. It counts the watches opened.
type followWorld struct {
	srv  *httptest.Server
	clk  *clocktesting.FakeClock
	fail func(key string)
	// failOther fails a key of the second controller, gadget.
	failOther func(key string)
	watches   atomic.Int32
}

func newFollowWorld(t *testing.T, noWatch bool) *followWorld {
	t.Helper()
	w := &followWorld{clk: clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))}
	reg := instrument.NewRegistry()
	log := logr.Discard()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log, Clock: w.clk, WatchTick: time.Second})
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("watch") != "" {
			w.watches.Add(1)
		}
		if noWatch && strings.HasSuffix(r.URL.Path, "/v1/controllers") {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var list api.ControllerList
			_ = json.Unmarshal(rec.Body.Bytes(), &list)
			for i := range list.Controllers {
				list.Controllers[i].Capabilities.Watch, list.Controllers[i].Capabilities.Watches = false, nil
			}
			rw.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(rw).Encode(list)
			return
		}
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(w.srv.Close)
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: w.clk})
	// A minute's backoff: a tick of the clock changes no row by itself.
	rl := p.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("connection refused")
	}))
	w.fail = func(key string) {
		_, _ = rec.Reconcile(context.Background(), key)
		rl.When(key)
	}
	w.fail("default/w1")
	// A second controller, which get -w --controller widget must not show.
	g := instrument.NewTyped("gadget", instrument.TypedOptions[string]{Registry: reg, Clock: w.clk})
	grl := g.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))
	grec := g.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("gadget down")
	}))
	w.failOther = func(key string) {
		_, _ = grec.Reconcile(context.Background(), key)
		grl.When(key)
	}
	return w
}

// startGetWatch runs get -w on w until the test ends; its stdout.
func startGetWatch(t *testing.T, w *followWorld, newCmd func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) *cobra.Command) *syncBuffer {
	t.Helper()
	out := &syncBuffer{}
	streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := newCmd(genericclioptions.NewConfigFlags(true), streams)
		cmd.SetArgs([]string{"--addr", w.srv.URL, "-w", "--sort", "key", "--controller", "widget"})
		done <- cmd.ExecuteContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("get -w ended with %v, want nil on interrupt", err)
		}
	})
	waitFor(t, out, "default/w1", func() {})
	return out
}

// waitFor waits for out to hold want, calling step between looks.
func waitFor(t *testing.T, out *syncBuffer, want string, step func()) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("get -w never printed %q; it printed:\n%s", want, out)
		}
		step()
		time.Sleep(5 * time.Millisecond) // a look at the output, not a wait for time to pass
	}
}

// TestGetWatchFollowsTheWatch: get -w prints the list, then a key that
// starts failing as one row without header, brought by the endpoint's
// watch at its tick: the command's own clock never ticks.
func TestGetWatchFollowsTheWatch(t *testing.T) {
	w := newFollowWorld(t, false)
	cliClock := clocktesting.NewFakeClock(w.clk.Now()) // never stepped
	out := startGetWatch(t, w, cli.NewGetCommandWithClock(cliClock))
	waitFor(t, out, "CONTROLLER", func() {})
	w.failOther("default/g1") // before w9: a change of the watch that --controller leaves out
	w.fail("default/w9")
	waitFor(t, out, "default/w9", func() {
		if w.clk.HasWaiters() {
			w.clk.Step(time.Second) // the endpoint's tick
		}
	})
	if n := w.watches.Load(); n == 0 {
		t.Error("get -w opened no watch on an endpoint that offers one")
	}
	if got := strings.Count(out.String(), "CONTROLLER"); got != 1 {
		t.Errorf("%d headers, want 1: the changes are rows alone\n%s", got, out)
	}
	if got := strings.Count(out.String(), "default/w1"); got != 1 {
		t.Errorf("default/w1 printed %d times, want once: it did not change\n%s", got, out)
	}
	if strings.Contains(out.String(), "gadget") {
		t.Errorf("get -w --controller widget printed the gadget controller's key:\n%s", out)
	}
}

// TestGetWatchPollsWithoutWatch: against an endpoint whose capabilities
// offer no watch, get -w reads the page again on its tick and prints the
// key that changed; no watch is opened.
func TestGetWatchPollsWithoutWatch(t *testing.T) {
	w := newFollowWorld(t, true)
	cliClock := clocktesting.NewFakeClock(w.clk.Now())
	out := startGetWatch(t, w, cli.NewGetCommandWithClock(cliClock))
	w.fail("default/w9")
	waitFor(t, out, "default/w9", func() {
		if cliClock.HasWaiters() {
			cliClock.Step(time.Second) // get -w's tick
		}
	})
	if n := w.watches.Load(); n != 0 {
		t.Errorf("%d watches opened on an endpoint without watch", n)
	}
}

// TestDescribeWatchFollowsTheKey: describe -w KEY describes the key, then
// again (after ---) when it fails once more, through the endpoint's watch;
// against an endpoint without watch, on its own tick.
func TestDescribeWatchFollowsTheKey(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		t.Run(fmt.Sprintf("noWatch=%v", noWatch), func(t *testing.T) {
			w := newFollowWorld(t, noWatch)
			cliClock := clocktesting.NewFakeClock(w.clk.Now())
			out := &syncBuffer{}
			streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: &syncBuffer{}}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				cmd := cli.NewDescribeCommandWithClock(cliClock)(genericclioptions.NewConfigFlags(true), streams)
				cmd.SetArgs([]string{"--addr", w.srv.URL, "-w", "default/w1"})
				done <- cmd.ExecuteContext(ctx)
			}()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("describe -w ended with %v, want nil on interrupt", err)
				}
			}()
			waitFor(t, out, "default/w1", func() {})
			w.fail("default/w1")
			waitFor(t, out, "---", func() {
				clk := w.clk // the endpoint's tick brings the watch's change
				if noWatch {
					clk = cliClock // describe -w's own tick reads again
				}
				if clk.HasWaiters() {
					clk.Step(time.Second)
				}
			})
			waitFor(t, out, "2 consecutive failures", func() {})
			before, again, _ := strings.Cut(out.String(), "---\n")
			if strings.Contains(before, "2 consecutive") || !strings.Contains(again, "2 consecutive failures") || strings.Contains(again, "---\n") {
				t.Errorf("want the description, then once after --- the key's second failure; got:\n%s", out)
			}
			if n := w.watches.Load(); (n == 0) != noWatch {
				t.Errorf("%d watches opened; want some exactly when the endpoint offers them", n)
			}
		})
	}
}
