package inspector_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// unlimited registers a controller whose reconciler alone is instrumented:
// the endpoint lists its keys but refuses to forget them (no limiter).
func (r *replica) unlimited(t *testing.T, name, key string, n int) {
	t.Helper()
	p := instrument.NewTyped(name, instrument.TypedOptions[string]{Registry: r.reg, Clock: r.clock})
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("boom")
	}))
	for range n {
		_, _ = rec.Reconcile(context.Background(), key)
	}
}

// TestForgetEachGoesOnPastARefusal: the refusing controller comes first, so
// a loop that stops at the first error leaves widget's keys failing.
func TestForgetEachGoesOnPastARefusal(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	r.unlimited(t, "gadget", "default/g1", 2)
	w := r.controller("widget")
	w.fail(t, "default/w1", 3, "boom")
	w.fail(t, "default/w2", 4, "boom")
	s := inspector.NewSession([]*inspector.Endpoint{r.endpoint(t, "ops/ctrl-0")}, nil)
	ctx := context.Background()
	all := func(c string, dryRun bool) api.ForgetRequest {
		return api.ForgetRequest{Controller: c, Filter: &api.Filter{}, DryRun: dryRun}
	}
	failures := func(c, key string) int {
		t.Helper()
		d, err := r.endpoint(t, "").Client.Key(ctx, c, key)
		if err != nil {
			t.Fatalf("key %s %s: %v", c, key, err)
		}
		return d.Failures
	}

	for _, dryRun := range []bool{true, false} {
		resps, err := s.ForgetEach(ctx, []api.ForgetRequest{all("gadget", dryRun), all("widget", dryRun)})
		if len(resps) != 1 || resps[0].Controller != "widget" || resps[0].Count != 2 || resps[0].DryRun != dryRun {
			t.Errorf("dry run %v: responses %+v, want widget's alone, counting its 2 keys", dryRun, resps)
		}
		fs, ok := errors.AsType[inspector.ForgetFailures](err)
		if !ok || !slices.Equal(fs.Controllers(), []string{"gadget"}) {
			t.Fatalf("dry run %v: error %v, want ForgetFailures naming gadget alone", dryRun, err)
		}
		if ae, ok := errors.AsType[*inspector.APIError](err); !ok || ae.Code != http.StatusConflict {
			t.Errorf("dry run %v: error %v, want the endpoint's 409 inside it", dryRun, err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "gadget: ") || !strings.Contains(msg, "no instrumented rate limiter") {
			t.Errorf("dry run %v: error %q, want it to start with the controller and keep the endpoint's reason", dryRun, msg)
		}
		want := []int{3, 4}
		if !dryRun {
			want = []int{0, 0}
		}
		if got := []int{failures("widget", "default/w1"), failures("widget", "default/w2")}; !slices.Equal(got, want) {
			t.Errorf("dry run %v: widget's failures after ForgetEach = %v, want %v", dryRun, got, want)
		}
	}
	resps, err := s.ForgetEach(ctx, []api.ForgetRequest{all("widget", false)})
	if err != nil || len(resps) != 1 {
		t.Errorf("ForgetEach widget alone = %d responses, %v; want 1 and a nil error", len(resps), err)
	}
}

// TestForgetEachKeepsAPartialAnswer: over two replicas, one read-only,
// Forget answers the other's keys and an error; ForgetEach reports both.
func TestForgetEachKeepsAPartialAnswer(t *testing.T) {
	a, b := newReplica(t, instrument.HandlerOptions{ReadOnly: true}), newReplica(t, instrument.HandlerOptions{})
	a.controller("widget").fail(t, "a1", 2, "boom")
	b.controller("widget").fail(t, "b1", 3, "boom")
	s := inspector.NewSession([]*inspector.Endpoint{a.endpoint(t, "ops/ctrl-a"), b.endpoint(t, "ops/ctrl-b")}, nil)

	resps, err := s.ForgetEach(context.Background(), []api.ForgetRequest{{Controller: "widget", Filter: &api.Filter{}}})
	if len(resps) != 1 || resps[0].Count != 1 || resps[0].Keys[0].Key != "b1" {
		t.Errorf("responses %+v, want ctrl-b's b1", resps)
	}
	if !inspector.IsForbidden(err) || !strings.HasPrefix(err.Error(), "widget: ops/ctrl-a: ") {
		t.Errorf("error %v, want ctrl-a's 403 under widget's name", err)
	}
}
