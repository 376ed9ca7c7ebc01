package snapshot_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// TestTakeListsAKeyAsItsDetail: a key that fails again between the list
// read and its detail read is one key in the snapshot, not two: its list
// entry carries the detail's state, so that top --file's row and its
// detail agree.
func TestTakeListsAKeyAsItsDetail(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	clk := clocktesting.NewFakeClock(now)
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clk})
	rl := p.RateLimiter(nil)
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("503")
	}))
	fail := func(key string, n int) {
		for range n {
			clk.Step(time.Millisecond)
			_, _ = rec.Reconcile(context.Background(), key)
			rl.When(key)
		}
	}
	fail("default/w1", 4)
	fail("default/w2", 1)
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log})
	// The controller goes on between the snapshot's reads: before the
	// first v1/key is answered, w1 fails twice more.
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/v1/key") {
			once.Do(func() { fail("default/w1", 2) })
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}

	f, err := snapshot.Take(t.Context(), s, snapshot.TakeOptions{MaxDetails: 1}) // w1's detail only
	if err != nil {
		t.Fatal(err)
	}
	ep := f.Endpoints[0]
	if len(ep.Details) != 1 || ep.Details[0].Key != "default/w1" || ep.Details[0].Failures != 6 {
		t.Fatalf("details %+v: want w1's, read after its 2 more failures (6)", ep.Details)
	}
	listed := map[string]api.Key{}
	for _, k := range ep.Keys {
		listed[k.Key] = k
	}
	d, w1, w2 := ep.Details[0], listed["default/w1"], listed["default/w2"]
	if w1.Failures != d.Failures || !w1.NextRetryAt.Equal(d.NextRetryAt) || w1.Delay != d.Delay || !w1.LastReconcileAt.Equal(d.LastReconcileAt) {
		t.Errorf("w1 listed with failures %d, next %v, delay %v; its detail says %d, %v, %v: want the list to carry the detail's state",
			w1.Failures, w1.NextRetryAt, w1.Delay, d.Failures, d.NextRetryAt, d.Delay)
	}
	if len(w1.History) != 0 {
		t.Errorf("w1's list entry has %d attempts: the history belongs to its detail only", len(w1.History))
	}
	if w2.Failures != 1 {
		t.Errorf("w2 (no detail) listed with %d failures, want 1 as v1/keys said", w2.Failures)
	}

	// Read back as top --file does: the row and the detail say the same.
	off := inspector.InProcessSession(nil, snapshot.Handlers(f)...)
	l, err := off.Keys(t.Context(), inspector.KeyQuery{Q: "w1", Sort: api.SortKey})
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("offline keys -q w1: %v, %+v", err, l)
	}
	od, err := off.Key(t.Context(), "widget", "default/w1")
	if err != nil {
		t.Fatal(err)
	}
	if row := l.Items[0]; row.Failures != od.Failures || row.Delay != od.Delay || !row.NextRetryAt.Equal(od.NextRetryAt) {
		t.Errorf("offline row: failures %d, delay %v; detail: %d, %v; want one state", row.Failures, row.Delay, od.Failures, od.Delay)
	}
}
