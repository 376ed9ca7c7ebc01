package instrument

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestWhenAfterOutcomeTakesItsTime: on the real clock, the When that
// follows a failure the reconciler decorator recorded is timed at that
// failure, without a clock read of its own: the retry is due exactly the
// delay after the last reconcile, with the priority queue's default limiter
// and with a limiter passed in. The classic default's token bucket reads the
// clock for its token, and the retry is timed from that reading.
func TestWhenAfterOutcomeTakesItsTime(t *testing.T) {
	req := htReq("default/w")
	for _, tc := range []struct {
		name  string
		pq    bool
		inner workqueue.TypedRateLimiter[reconcile.Request]
	}{
		{"priority-default", true, nil},
		{"passed-in", true, NewExponentialLimiter[reconcile.Request](time.Hour, 2*time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New("inline", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(tc.pq), DisableMetrics: true})
			rl := p.RateLimiter(tc.inner)
			r := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
				time.Sleep(2 * time.Millisecond) // the record's time and the When's would differ
				return reconcile.Result{}, errors.New("boom")
			}))
			for range 3 {
				_, _ = r.Reconcile(context.Background(), req)
				time.Sleep(2 * time.Millisecond)
				d := rl.When(req)
				k, _, _ := p.lookup(req.String())
				if want := k.LastReconcileAt.Add(d); !k.NextRetryAt.Equal(want) {
					t.Fatalf("nextRetryAt = %v, want lastReconcileAt + %v = %v", k.NextRetryAt, d, want)
				}
			}
		})
	}
	t.Run("classic-default", func(t *testing.T) {
		p := New("inline", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(false), DisableMetrics: true})
		rl := p.RateLimiter(nil)
		r := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, errors.New("boom")
		}))
		_, _ = r.Reconcile(context.Background(), req)
		time.Sleep(2 * time.Millisecond)
		d := rl.When(req)
		k, _, _ := p.lookup(req.String())
		if least := k.LastReconcileAt.Add(d + 2*time.Millisecond); k.NextRetryAt.Before(least) {
			t.Errorf("nextRetryAt = %v, want from the bucket's clock reading, at least %v", k.NextRetryAt, least)
		}
	})
}

// TestReconcileStartsAtHandout: with the reconciler decorator, a reconcile
// starts when the queue handed the key out (controller-runtime reconciles
// right after its Get): its duration counts from the handout, and the Done
// after it changes nothing.
func TestReconcileStartsAtHandout(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC))
	for _, pq := range []bool{true, false} {
		p := New("inline", Options{Registry: NewRegistry(), Clock: clk, UsePriorityQueue: ptr.To(pq), DisableMetrics: true})
		q := p.NewQueue("inline", p.RateLimiter(nil))
		r := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			clk.Step(10 * time.Millisecond)
			return reconcile.Result{}, reconcile.TerminalError(errors.New("bad"))
		}))
		req := htReq("default/w")
		q.Add(req)
		item, _ := q.Get()
		handout := clk.Now()
		clk.Step(5 * time.Millisecond)
		_, _ = r.Reconcile(context.Background(), item)
		q.Done(item)
		k, _, _ := p.lookup(req.String())
		if k.LastDuration.Duration != 15*time.Millisecond || !k.LastReconcileAt.Equal(handout.Add(15*time.Millisecond)) {
			t.Errorf("priority queue %v: lastDuration %v, lastReconcileAt %v; want 15ms from the handout %v", pq, k.LastDuration.Duration, k.LastReconcileAt, handout)
		}
		if k.State != "failed" || !k.StartedAt.IsZero() {
			t.Errorf("priority queue %v: state %s, startedAt %v; want failed, none", pq, k.State, k.StartedAt)
		}
		q.ShutDown()
	}
}
