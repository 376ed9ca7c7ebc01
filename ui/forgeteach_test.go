package ui

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TestBulkForgetPastARefusingController: a bulk forget over two
// controllers, the first of which refuses (its queue's limiter is not
// instrumented): the other's keys are still forgotten, and the status
// says both how many were and which controller failed, as an error.
func TestBulkForgetPastARefusingController(t *testing.T) {
	reg := instrument.NewRegistry()
	gadget := instrument.NewTyped[string]("gadget", instrument.TypedOptions[string]{Registry: reg})
	_ = gadget.Track("demo/g1", func() error { return errors.New("boom") })
	widgets := instrument.NewTyped[string]("widgets", instrument.TypedOptions[string]{Registry: reg})
	rl := widgets.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))
	for _, key := range []string{"demo/w1", "demo/w2"} {
		_ = widgets.Track(key, func() error { return errors.New("boom") })
		rl.When(key)
	}
	discard := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &discard}))
	t.Cleanup(srv.Close)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	failures := func(key string) int {
		t.Helper()
		k, err := s.Key(ctx, "widgets", key)
		if err != nil {
			t.Fatal(err)
		}
		return k.Failures
	}
	act := widget.Action{Controllers: []string{"gadget", "widgets"}, Filter: &api.Filter{}, What: "(ALL keys, no filter) of every controller"}

	dry := dryRunCmd(ctx, s, 1, act)().(dryRunMsg)
	if dry.count != 2 || dry.err == nil || !strings.Contains(dry.err.Error(), "gadget: ") {
		t.Errorf("dry run: count %d, error %v; want widgets' 2 keys and an error naming gadget", dry.count, dry.err)
	}
	if failures("demo/w1") != 1 {
		t.Fatal("the dry run forgot demo/w1")
	}

	done := forgetCmd(ctx, s, act)().(forgetDoneMsg)
	if done.count != 2 || !slices.Equal(done.forgotIn, []string{"widgets"}) {
		t.Errorf("forget: count %d in %v, want 2 in [widgets]", done.count, done.forgotIn)
	}
	if got := []int{failures("demo/w1"), failures("demo/w2")}; !slices.Equal(got, []int{0, 0}) {
		t.Errorf("widgets' failures after the forget = %v, want [0 0]: gadget's refusal stopped it", got)
	}

	m := send(t, loaded(t, 120, 30), done)
	want := `forgot the backoff of 2 keys of widgets; a pending retry keeps its time (r retries now); ` +
		`forget failed in gadget: POST /debug/backoff/v1/forget: 409 Conflict: controller "gadget" has no instrumented rate limiter to forget with`
	if m.status != want || !m.statusErr {
		t.Errorf("status %q (error %v), want as an error:\n%q", m.status, m.statusErr, want)
	}

	// Every controller refusing: nothing was forgotten, and the status says only that.
	m = send(t, m, forgetDoneMsg{act: act, err: inspector.ForgetFailures{
		{Controller: "gadget", Err: errors.New("no limiter")}, {Controller: "widgets", Err: errors.New("read-only")}}})
	if want := "forget failed: gadget: no limiter; widgets: read-only"; m.status != want || !m.statusErr {
		t.Errorf("status %q (error %v), want as an error: %q", m.status, m.statusErr, want)
	}
}
