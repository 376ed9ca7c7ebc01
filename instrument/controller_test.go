package instrument

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// These tests run real controller-runtime controllers — its workers, its
// priority and classic queues, its panic recovery — fed by a channel source,
// and check what the endpoint reports over HTTP.

func TestControllerFailureBackoffSuccess(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key, fails = "default/w1", 3
		failure := errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
		gate := make(chan struct{})
		h := startController(t, pq, nil, func(ctx context.Context, _ string, call int) (reconcile.Result, error) {
			if call <= fails {
				return reconcile.Result{}, failure
			}
			return reconcile.Result{}, block(ctx, gate)
		})
		h.send(key)

		// The attempt after the last failure is held, so the backoff can be read.
		k := h.wait(key, "running after the failures", func(k api.KeyDetail) bool {
			return k.State == api.StateRunning && k.Reconciles == fails
		})
		if k.Failures != fails || k.TotalFailures != fails {
			t.Errorf("failures = %d, totalFailures = %d, want %d and %d", k.Failures, k.TotalFailures, fails, fails)
		}
		wantDefaultSource(t, pq, k.Key)
		checkExponentialHistory(t, pq, k.History, api.OutcomeError, fails)
		last := k.History[fails-1]
		if got, want := k.Delay.Duration, last.Delay.Duration; got != want {
			t.Errorf("delay = %v, want the last attempt's %v", got, want)
		}
		// The delay was decided after the last attempt ended, and the queue
		// released the key (to the attempt now running) only once it had passed.
		checkRetryAt(t, k.Key, last.At, k.StartedAt.Add(-k.Delay.Duration))
		if k.LastError == nil || k.LastError.Message != failure.Error() || k.SameErrorCount != fails {
			t.Errorf("lastError = %+v ×%d, want %q ×%d", k.LastError, k.SameErrorCount, failure, fails)
		}
		if !k.FirstFailureAt.Equal(k.History[0].At) {
			t.Errorf("firstFailureAt = %v, want the first attempt's %v", k.FirstFailureAt, k.History[0].At)
		}

		close(gate)
		k = h.wait(key, "idle with the backoff forgotten", func(k api.KeyDetail) bool {
			return k.State == api.StateIdle && k.Reconciles == fails+1 && k.Failures == 0
		})
		if got, want := outcomes(k.History), []string{api.OutcomeError, api.OutcomeError, api.OutcomeError, api.OutcomeSuccess}; !slices.Equal(got, want) {
			t.Errorf("history = %v, want %v", got, want)
		}
		if k.TotalFailures != fails {
			t.Errorf("totalFailures = %d, want %d", k.TotalFailures, fails)
		}
		if k.LastSuccessAt.IsZero() || !k.LastSuccessAt.Equal(k.History[fails].At) {
			t.Errorf("lastSuccessAt = %v, want the success's %v", k.LastSuccessAt, k.History[fails].At)
		}
		if !k.NextRetryAt.IsZero() || k.DelaySource != "" || !k.FirstFailureAt.IsZero() {
			t.Errorf("after success: nextRetryAt=%v delaySource=%q firstFailureAt=%v, want all unset",
				k.NextRetryAt, k.DelaySource, k.FirstFailureAt)
		}
	})
}

func TestControllerTerminalError(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key, fails = "default/w1", 2
		terminal := reconcile.TerminalError(errors.New("spec.replicas: must be positive"))
		h := startController(t, pq, nil, func(_ context.Context, k string, call int) (reconcile.Result, error) {
			switch {
			case k != key:
				return reconcile.Result{}, nil
			case call <= fails:
				return reconcile.Result{}, errors.New("transient")
			}
			return reconcile.Result{}, terminal
		})
		h.send(key)
		h.wait(key, "failed", func(k api.KeyDetail) bool { return k.State == api.StateFailed })
		h.settle() // a retry, had one been queued, would be decided by now

		k := h.mustKey(key)
		if k.State != api.StateFailed || k.Failures != fails || k.TotalFailures != fails+1 || k.Reconciles != fails+1 {
			t.Errorf("got %s; want failed, failures %d kept, totalFailures %d", describeKey(k.Key), fails, fails+1)
		}
		if got, want := outcomes(k.History), []string{api.OutcomeError, api.OutcomeError, api.OutcomeTerminal}; !slices.Equal(got, want) {
			t.Errorf("history = %v, want %v", got, want)
		}
		if k.LastError == nil || k.LastError.Message != terminal.Error() {
			t.Errorf("lastError = %+v, want %q", k.LastError, terminal)
		}
		if !k.NextRetryAt.IsZero() || k.Delay.Duration != 0 {
			t.Errorf("nextRetryAt = %v, delay = %v; a terminal error schedules no retry", k.NextRetryAt, k.Delay.Duration)
		}
		if n := h.rec.callsOf(key); n != fails+1 {
			t.Errorf("reconciled %d times, want %d: a terminal error must not be retried", n, fails+1)
		}
	})
}

func TestControllerRequeueAfter(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key = "default/w1"
		after := 90 * time.Minute
		h := startController(t, pq, nil, func(context.Context, string, int) (reconcile.Result, error) {
			return reconcile.Result{RequeueAfter: after}, nil
		})
		h.send(key)
		k := h.wait(key, "scheduled", func(k api.KeyDetail) bool { return k.State == api.StateScheduled })
		if k.DelaySource != api.SourceRequeueAfter || k.Delay.Duration != after {
			t.Errorf("delay = %v from %q, want %v from %q", k.Delay.Duration, k.DelaySource, after, api.SourceRequeueAfter)
		}
		checkRetryAt(t, k.Key, k.LastReconcileAt, k.ServerTime)
		if k.Failures != 0 || k.TotalFailures != 0 || k.LastError != nil {
			t.Errorf("got %s, lastError %+v; a RequeueAfter is not a failure", describeKey(k.Key), k.LastError)
		}
		if len(k.History) != 1 || k.History[0].Outcome != api.OutcomeRequeueAfter || k.History[0].Delay.Duration != after {
			t.Errorf("history = %+v, want one %q attempt delayed %v", k.History, api.OutcomeRequeueAfter, after)
		}
	})
}

func TestControllerRequeue(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		t.Run("held in backoff", func(t *testing.T) {
			const key = "default/w1"
			h := startController(t, pq, NewExponentialLimiter[reconcile.Request](longBackoff, longBackoff),
				func(context.Context, string, int) (reconcile.Result, error) {
					return reconcile.Result{Requeue: true}, nil
				})
			h.send(key)
			k := h.wait(key, "backoff", func(k api.KeyDetail) bool { return k.State == api.StateBackoff && k.Failures == 1 })
			if k.Delay.Duration != longBackoff || k.DelaySource != api.SourceItemExponential || k.TotalFailures != 0 || k.LastError != nil {
				t.Errorf("got %s, lastError %+v; want delay %v from the limiter, no error counted", describeKey(k.Key), k.LastError, longBackoff)
			}
			if len(k.History) != 1 || k.History[0].Outcome != api.OutcomeRequeue || k.History[0].Delay.Duration != longBackoff {
				t.Errorf("history = %+v, want one %q attempt delayed %v", k.History, api.OutcomeRequeue, longBackoff)
			}
		})
		t.Run("retried with backoff", func(t *testing.T) {
			const key, requeues = "default/w1", 2
			h := startController(t, pq, nil, func(_ context.Context, _ string, call int) (reconcile.Result, error) {
				return reconcile.Result{Requeue: call <= requeues}, nil
			})
			h.send(key)
			k := h.wait(key, "idle", func(k api.KeyDetail) bool {
				return k.State == api.StateIdle && k.Reconciles == requeues+1 && k.Failures == 0
			})
			checkExponentialHistory(t, pq, k.History, api.OutcomeRequeue, requeues)
			if got := outcomes(k.History); len(got) != requeues+1 || got[requeues] != api.OutcomeSuccess {
				t.Errorf("history = %v, want %d requeues then a success", got, requeues)
			}
			if k.TotalFailures != 0 {
				t.Errorf("totalFailures = %d, want 0: Requeue is not an error", k.TotalFailures)
			}
		})
	})
}

func TestControllerEventDuringBackoff(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key = "default/w1"
		h := startController(t, pq, NewExponentialLimiter[reconcile.Request](longBackoff, longBackoff),
			func(context.Context, string, int) (reconcile.Result, error) {
				return reconcile.Result{}, errors.New("still broken")
			})
		h.send(key)
		k1 := h.wait(key, "backoff", func(k api.KeyDetail) bool { return k.State == api.StateBackoff && k.Failures == 1 })
		if k1.Delay.Duration != longBackoff || k1.DelaySource != api.SourceItemExponential {
			t.Errorf("delay = %v from %q, want %v from %q", k1.Delay.Duration, k1.DelaySource, longBackoff, api.SourceItemExponential)
		}
		checkRetryAt(t, k1.Key, k1.History[0].At, k1.ServerTime)

		h.send(key) // the object changed: reconcile now, not in an hour
		// The priority queue calls When from its own goroutine, after the
		// reconcile's outcome is recorded: wait for the delay too. An event
		// that reset the failures would leave them at 1 and fail the wait.
		k2 := h.wait(key, "a second failure and its delay", func(k api.KeyDetail) bool {
			return k.State == api.StateBackoff && k.Reconciles == 2 && k.Failures == 2
		})
		if !k2.LastEventAt.After(k1.LastEventAt) {
			t.Errorf("lastEventAt = %v, want after the first event's %v", k2.LastEventAt, k1.LastEventAt)
		}
		if k2.Failures != 2 || k2.TotalFailures != 2 || k2.SameErrorCount != 2 {
			t.Errorf("got %s sameErrorCount=%d; an event must not reset the failures", describeKey(k2.Key), k2.SameErrorCount)
		}
		if !k2.FirstFailureAt.Equal(k1.FirstFailureAt) {
			t.Errorf("firstFailureAt = %v, want the streak's start %v", k2.FirstFailureAt, k1.FirstFailureAt)
		}
	})
}

func TestControllerPanic(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key, panics = "default/w1", 2
		h := startController(t, pq, nil, func(_ context.Context, _ string, call int) (reconcile.Result, error) {
			if call <= panics {
				panic("boom")
			}
			return reconcile.Result{}, nil
		})
		h.send(key)
		k := h.wait(key, "idle after the panics", func(k api.KeyDetail) bool {
			return k.State == api.StateIdle && k.Reconciles == panics+1 && k.Failures == 0
		})
		checkExponentialHistory(t, pq, k.History, api.OutcomeError, panics)
		const want = "panic: boom [recovered]"
		for i, a := range k.History[:panics] {
			if a.Error != want {
				t.Errorf("attempt %d: error %q, want %q", i+1, a.Error, want)
			}
		}
		if k.LastError == nil || k.LastError.Message != want || k.TotalFailures != panics {
			t.Errorf("lastError = %+v, totalFailures %d; want %q, %d", k.LastError, k.TotalFailures, want, panics)
		}
	})
}

func TestControllerRunningVisible(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key = "default/w1"
		gate := make(chan struct{})
		h := startController(t, pq, nil, func(ctx context.Context, _ string, _ int) (reconcile.Result, error) {
			return reconcile.Result{}, block(ctx, gate)
		})
		h.send(key)
		k := h.wait(key, "running", func(k api.KeyDetail) bool { return k.State == api.StateRunning })
		if k.StartedAt.IsZero() || k.StartedAt.After(k.ServerTime) || k.Reconciles != 0 {
			t.Errorf("startedAt = %v (server time %v), reconciles %d; want a start in the past, none finished",
				k.StartedAt, k.ServerTime, k.Reconciles)
		}
		if c := h.ep.controller(ctrlName); c.Counts[api.StateRunning] != 1 || !c.Active {
			t.Errorf("controller counts %v, active %v; want 1 running, active", c.Counts, c.Active)
		}
		close(gate)
		k = h.wait(key, "idle", func(k api.KeyDetail) bool { return k.State == api.StateIdle })
		if !k.StartedAt.IsZero() || k.Reconciles != 1 {
			t.Errorf("after the reconcile: startedAt = %v, reconciles = %d; want unset and 1", k.StartedAt, k.Reconciles)
		}
	})
}

func TestControllerForget(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		for _, requeue := range []bool{true, false} {
			name := map[bool]string{true: "requeue", false: "keep pending retry"}[requeue]
			t.Run(name, func(t *testing.T) { testForget(t, pq, requeue) })
		}
	})
}

func testForget(t *testing.T, pq, requeue bool) {
	const key = "default/w1"
	h := startController(t, pq, NewExponentialLimiter[reconcile.Request](longBackoff, longBackoff),
		func(_ context.Context, k string, _ int) (reconcile.Result, error) {
			if k != key {
				return reconcile.Result{}, nil
			}
			return reconcile.Result{}, errors.New("still broken")
		})
	h.send(key)
	k1 := h.wait(key, "backoff", func(k api.KeyDetail) bool { return k.State == api.StateBackoff && k.Failures == 1 })

	resp := h.ep.forget(api.ForgetRequest{Controller: ctrlName, Keys: []string{key}, Requeue: requeue})
	wantKeys := []api.ForgottenKey{{Key: key, State: api.StateBackoff, Failures: 1}}
	if resp.Count != 1 || resp.Requeued != requeue || resp.PendingRetryKept == requeue || !slices.Equal(resp.Keys, wantKeys) {
		t.Errorf("forget response = %+v; want count 1, requeued %v, pendingRetryKept %v, keys %+v",
			resp, requeue, !requeue, wantKeys)
	}
	req := reqOf(key)

	if !requeue {
		h.settle() // a reconcile of key, had the forget queued one, would have run by now
		k := h.mustKey(key)
		if k.State != api.StateBackoff || k.Failures != 0 || !k.NextRetryAt.Equal(k1.NextRetryAt) {
			t.Errorf("got %s, nextRetryAt %v; want backoff, failures 0, the pending retry at %v",
				describeKey(k.Key), k.NextRetryAt, k1.NextRetryAt)
		}
		if !k.FirstFailureAt.Equal(k1.FirstFailureAt) {
			t.Errorf("firstFailureAt = %v after the forget, want %v still: the key is still failing", k.FirstFailureAt, k1.FirstFailureAt)
		}
		if got, want := outcomes(k.History), []string{api.OutcomeError, api.OutcomeForgotten}; !slices.Equal(got, want) {
			t.Errorf("history = %v, want %v", got, want)
		}
		if n := h.probe.limiter.NumRequeues(req); n != 0 {
			t.Errorf("limiter NumRequeues = %d after forget, want 0", n)
		}
		if n := h.rec.callsOf(key); n != 1 {
			t.Errorf("reconciled %d times, want 1: forget without requeue must not retry", n)
		}
		return
	}
	// Retried now, not in an hour; the count restarts, the streak goes on.
	// The priority queue calls When from its own goroutine, after the
	// outcome is recorded: wait for the retry's delay too.
	k := h.wait(key, "a retry and its delay", func(k api.KeyDetail) bool {
		n := len(k.History)
		return k.Reconciles == 2 && k.State == api.StateBackoff && n > 0 && k.History[n-1].Delay.Duration > 0
	})
	if k.Failures != 1 || k.TotalFailures != 2 {
		t.Errorf("got %s; want failures 1 (reset, then one more), totalFailures 2", describeKey(k.Key))
	}
	if got, want := outcomes(k.History), []string{api.OutcomeError, api.OutcomeForgotten, api.OutcomeError}; !slices.Equal(got, want) {
		t.Errorf("history = %v, want %v", got, want)
	}
	if !k.FirstFailureAt.Equal(k.History[0].At) {
		t.Errorf("firstFailureAt = %v, want the streak's start before the forget %v: a forget resets the count, not the failure",
			k.FirstFailureAt, k.History[0].At)
	}
	if n := h.probe.limiter.NumRequeues(req); n != 1 {
		t.Errorf("limiter NumRequeues = %d, want 1", n)
	}
}

func TestQueueKeepsPriorityInterface(t *testing.T) {
	for _, c := range []struct {
		name   string
		usePQ  *bool
		wantPQ bool
	}{
		{"default", nil, true},
		{"priority", ptr.To(true), true},
		{"classic", ptr.To(false), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ep := newTestEndpoint(t)
			p := New("x", Options{Registry: ep.Registry, UsePriorityQueue: c.usePQ})
			q := p.NewQueue("x", p.RateLimiter(nil))
			defer q.ShutDown()
			pq, ok := q.(priorityqueue.PriorityQueue[reconcile.Request])
			if ok != c.wantPQ {
				t.Fatalf("NewQueue returned %T; implements PriorityQueue = %v, want %v", q, ok, c.wantPQ)
			}
			if !ok {
				return
			}
			low, high := reqOf("default/low"), reqOf("default/high")
			pq.AddWithOpts(priorityqueue.AddOpts{Priority: ptr.To(0)}, low)
			pq.AddWithOpts(priorityqueue.AddOpts{Priority: ptr.To(10)}, high)
			item, prio, shutdown := pq.GetWithPriority()
			if item != high || prio != 10 || shutdown {
				t.Errorf("GetWithPriority = %v, %d, %v; want %v, 10, false", item, prio, shutdown, high)
			}
			if k := ep.mustKey("x", "default/high"); k.State != api.StateRunning || k.LastEventAt.IsZero() {
				t.Errorf("high: got %s, lastEventAt %v; want running with its event recorded", describeKey(k.Key), k.LastEventAt)
			}
			if k := ep.mustKey("x", "default/low"); k.State != api.StateQueued {
				t.Errorf("low: state %s, want %s", k.State, api.StateQueued)
			}
		})
	}
}

// TestControllerQueueAndLimiterOnly instruments the limiter and the queue but
// not the reconciler: the outcomes are then inferred from what the controller
// does with the queue (a rate-limited add is a failure, Forget a success, no
// requeue at all a terminal error).
func TestControllerQueueAndLimiterOnly(t *testing.T) {
	const key = "default/w1"
	long := func() workqueue.TypedRateLimiter[reconcile.Request] {
		return NewExponentialLimiter[reconcile.Request](longBackoff, longBackoff)
	}
	for _, c := range []struct {
		name  string
		first reconcile.Result
		err   error
		// what the first reconcile must leave
		state    api.State
		failures int
		source   string
		outcome  string
	}{
		{"error", reconcile.Result{}, errors.New("still broken"), api.StateBackoff, 1, api.SourceItemExponential, api.OutcomeError},
		{"requeue-after", reconcile.Result{RequeueAfter: longBackoff}, nil, api.StateScheduled, 0, api.SourceRequeueAfter, ""},
		{"terminal", reconcile.Result{}, reconcile.TerminalError(errors.New("invalid")), api.StateFailed, 0, "", api.OutcomeTerminal},
	} {
		t.Run(c.name, func(t *testing.T) {
			forEachQueue(t, func(t *testing.T, pq bool) {
				h := startControllerWith(t, pq, long(), func(_ context.Context, _ string, call int) (reconcile.Result, error) {
					if call == 1 {
						return c.first, c.err
					}
					return reconcile.Result{}, nil
				}, false)
				h.send(key)
				k := h.wait(key, string(c.state), func(k api.KeyDetail) bool { return k.State == c.state })
				if k.Failures != c.failures || k.DelaySource != c.source {
					t.Errorf("got %s; want failures %d, delaySource %q", describeKey(k.Key), c.failures, c.source)
				}
				if c.state != api.StateFailed && k.Delay.Duration != longBackoff {
					t.Errorf("delay = %v, want %v", k.Delay.Duration, longBackoff)
				}
				if got := outcomes(k.History); c.outcome != "" && !slices.Equal(got, []string{c.outcome}) {
					t.Errorf("history = %v, want [%s]", got, c.outcome)
				}

				h.send(key) // the object changed; this time the reconcile succeeds
				k = h.wait(key, "idle", func(k api.KeyDetail) bool { return k.State == api.StateIdle && !k.LastSuccessAt.IsZero() })
				if k.Failures != 0 || !k.NextRetryAt.IsZero() || k.DelaySource != "" {
					t.Errorf("after the success: got %s, nextRetryAt %v; want idle with nothing pending", describeKey(k.Key), k.NextRetryAt)
				}
			})
		})
	}
}
