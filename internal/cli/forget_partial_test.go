package cli_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// refusingEndpoint is the real instrument handler with two controllers:
// gadget, whose reconciler alone is instrumented (its key default/g1 is
// listed, but the endpoint refuses to forget without a limiter), and
// widget, with default/w1 and default/w2 failing 3 and 4 times.
func refusingEndpoint(t *testing.T) (url string, c *inspector.Client) {
	t.Helper()
	// A fake clock, so that widget's keys are still backing off when read.
	reg, clk := instrument.NewRegistry(), clocktesting.NewFakeClock(diagnosisNow)
	fail := reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("boom")
	})
	gadget := instrument.NewTyped("gadget", instrument.TypedOptions[string]{Registry: reg, Clock: clk}).Reconciler(fail)
	_, _ = gadget.Reconcile(context.Background(), "default/g1")
	w := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clk})
	rec, rl := w.Reconciler(fail), w.RateLimiter(nil)
	for key, n := range map[string]int{"default/w1": 3, "default/w2": 4} {
		for range n {
			_, _ = rec.Reconcile(context.Background(), key)
			rl.When(key)
		}
	}
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	c, err := inspector.NewClient(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv.URL, c
}

// TestForgetGoesOnPastARefusingController: KEYs of two controllers, the
// first of which refuses: widget's keys are still forgotten and printed,
// and the command fails naming gadget, as kubectl delete of several
// objects deletes those it can and exits non-zero naming the rest.
func TestForgetGoesOnPastARefusingController(t *testing.T) {
	for _, output := range []string{"", "name"} {
		t.Run("-o "+output, func(t *testing.T) {
			addr, c := refusingEndpoint(t)
			failuresOf := keyFailures(t, c)
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			args := []string{"--addr", addr, "default/g1", "default/w1", "default/w2"}
			if output != "" {
				args = append(args, "-o", output)
			}
			err := run(cli.NewForgetCommand, streams, args...)

			if got := []int{failuresOf("widget", "default/w1"), failuresOf("widget", "default/w2")}; got[0] != 0 || got[1] != 0 {
				t.Errorf("widget's failures after the forget = %v, want [0 0]: a refusal elsewhere stopped it", got)
			}
			want := "widget default/w1: was backoff, 3 failures reset\n" +
				"widget default/w2: was backoff, 4 failures reset\n"
			last := "forgot 2 keys in 1 controller\n"
			if output == "name" {
				want, last = "key/default/w1\nkey/default/w2\n", ""
			}
			if got := out.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, last) {
				t.Errorf("stdout:\n%s\nwant widget's keys:\n%s…%s", got, want, last)
			}
			if err == nil {
				t.Fatal("forget succeeded: want an error naming gadget")
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != 2 || lines[0] != "forget failed in 1 of 2 controllers:" ||
				!strings.HasPrefix(lines[1], "  gadget: ") || !strings.Contains(lines[1], `controller "gadget" has no instrumented rate limiter`) {
				t.Errorf("error:\n%v\nwant one line naming gadget and the endpoint's reason under a count of the failures", err)
			}
		})
	}
}

// TestForgetOneRefusingController: the same refusal, when it is the only
// controller asked, keeps the words it always had: no count of
// controllers, no name added.
func TestForgetOneRefusingController(t *testing.T) {
	addr, _ := refusingEndpoint(t)
	const want = `POST /debug/backoff/v1/forget: 409 Conflict: controller "gadget" has no instrumented rate limiter to forget with`
	// The KEY, and --all's count before confirming (no --yes).
	for _, args := range [][]string{{"default/g1"}, {"--controller", "gadget", "--all"}} {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		err := run(cli.NewForgetCommand, streams, append([]string{"--addr", addr}, args...)...)
		if err == nil || err.Error() != want {
			t.Errorf("forget %v: error %v, want %q", args, err, want)
		}
		if out.Len() != 0 {
			t.Errorf("forget %v printed %q; want nothing", args, out)
		}
	}
}
