package cli_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// suggestedCommand is a command a diagnosis suggests, in backquotes.
var suggestedCommand = regexp.MustCompile("`kubectl backoff ([^`]*)`")

// TestDescribeSuggestsCommandsThatRun: the forget that describe suggests,
// copied as printed, runs against the endpoint describe attached to (it
// carries --addr; before, it failed with "no cluster configured"), and for
// a key it names the key and its controller. Each is run with --dry-run
// added, which counts what it would forget. A controller instrumented at
// its rate limiter alone (widgets) cannot requeue: its key is told to kick,
// named once, with its controller.
func TestDescribeSuggestsCommandsThatRun(t *testing.T) {
	outage := diagnosisEndpoint(t) // outage: 12 keys failing 3 times on a 503
	widget, reconcile, _ := widgets(t, false)
	queuedSrv, queued := queuedWidgets(t)
	for range 6 { // the same transient error 6 times: the key's advice says to retry it now
		reconcile("default/w1", errors.New("PUT https://inventory/v1/items/w1: 503 Service Unavailable"))
		queued("default/w1", errors.New("PUT https://inventory/v1/items/w1: 503 Service Unavailable"))
	}
	for _, tt := range []struct {
		addr string
		args []string
		want string // the dry run's last line
		// kick, when set, is the command suggested instead, %s the
		// endpoint: these controllers are instrumented at the rate
		// limiter alone, so cannot requeue a key.
		kick string
	}{
		{outage, []string{"--controller", "outage"}, "", "kick --addr %s --controller outage demo/o-1 demo/o-2"},
		{widget.URL, []string{"default/w1"}, "", "kick --addr %s default/w1 --controller widget"},
		{queuedSrv.URL, []string{"default/w1"}, "would forget the backoff of 1 key of widget", ""},
	} {
		addr := tt.addr
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewDescribeCommand, streams, append([]string{"--addr", addr}, tt.args...)...); err != nil {
			t.Fatalf("describe %v: %v", tt.args, err)
		}
		cmds := suggestedCommand.FindAllStringSubmatch(out.String(), -1)
		if len(cmds) == 0 {
			t.Fatalf("describe %v suggests no command:\n%s", tt.args, out)
		}
		for _, m := range cmds {
			words := shellWords(m[1])
			if tt.kick != "" {
				if want := fmt.Sprintf(tt.kick, addr); m[1] != want {
					t.Errorf("describe %v suggests %q: want `kubectl backoff %s` (the endpoint cannot requeue)", tt.args, m[0], want)
				}
				continue
			}
			if words[0] != "forget" || !strings.Contains(m[1], "--addr "+addr) {
				t.Errorf("describe %v suggests %q: want a forget with --addr %s", tt.args, m[0], addr)
				continue
			}
			streams, _, fout, _ := genericiooptions.NewTestIOStreams()
			if err := run(cli.NewForgetCommand, streams, append(words[1:], "--dry-run")...); err != nil {
				t.Errorf("the suggested %q fails: %v", m[0], err)
				continue
			}
			if !strings.Contains(fout.String(), tt.want) {
				t.Errorf("the suggested %q, dry run, printed %q; want %q", m[0], fout, tt.want)
			}
		}
	}
}

// queuedWidgets is widgets with the controller's queue instrumented too (a
// classic rate-limiting queue, as ControllerOptions would wrap): its
// endpoint can forget a key and requeue it now. fail reconciles key once
// with err, adding it rate-limited as controller-runtime does.
func queuedWidgets(t *testing.T) (*httptest.Server, func(key string, err error)) {
	t.Helper()
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clk})
	q := p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(p.RateLimiter(nil), workqueue.TypedRateLimitingQueueConfig[string]{Name: "widget", Clock: clk}))
	t.Cleanup(q.ShutDown)
	var fail error
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) { return reconcile.Result{}, fail }))
	return srv, func(key string, err error) {
		fail = err
		if _, rerr := rec.Reconcile(context.Background(), key); rerr != nil {
			q.AddRateLimited(key)
		}
	}
}
