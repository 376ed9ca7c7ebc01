package verdict

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// The verdict truth table of docs/states.md ("How to read a key"), row by row:
// real controller-runtime controllers on both queues and a client-go
// controller are driven into each state, and what the endpoint serves and
// what `describe` says are checked together, through the same client code
// `kubectl backoff` runs.

const verdictWait = 10 * time.Second

// verdictRow is one row of the table: a way to drive a key, and what the
// endpoint and describe must then say.
type verdictRow struct {
	name string
	// classicOnly rows show a rule of client-go's delaying queue.
	classicOnly bool
	// drive brings the key "default/k" of h to the row's state and returns
	// when it is there.
	drive func(t *testing.T, h *verdictHarness)
	state api.State
	check func(k api.Key) string // "" when the endpoint's answer is right
	says  string                 // a sentence describe's diagnosis must contain
	// saysToo, when set, is one more sentence it must contain.
	saysToo string
	// saysNot, when set, is a sentence it must not contain.
	saysNot string
	// limiter, when set, makes the controller's rate limiter (a new one per
	// queue); unset, an exponential one that starts at a minute
	// (startVerdictController).
	limiter func() workqueue.TypedRateLimiter[reconcile.Request]
	// controllerSays, when set, is what the controller's one-line diagnosis
	// (get's header, top's) must contain.
	controllerSays string
}

func TestVerdictTruthTable(t *testing.T) {
	const key = "default/k"
	boom := errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
	rows := []verdictRow{{
		name:  "backoff after an error",
		drive: func(t *testing.T, h *verdictHarness) { h.fail(t, key, boom, 1) },
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 1 && k.DelaySource == api.SourceItemExponential && k.LastError.Class == api.ClassTransient,
				"failures 1, item-exponential, a transient last error")
		},
		says: "Backing off 1m0s after 1 consecutive failure: per-item exponential, 1m0s·2^0",
		// One event, one reconcile: the change was seen by that reconcile.
		saysToo: " and was reconciled at ",
	}, {
		name: "backoff after Requeue: true",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{Requeue: true}, nil }) //nolint:staticcheck // still honoured
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 1 })
		},
		state: api.StateBackoff,
		check: func(k api.Key) string { return want(k.LastError == nil, "no last error") },
		says:  "the last reconcile returned Requeue: true, not an error",
	}, {
		name: "scheduled by RequeueAfter",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{RequeueAfter: time.Minute}, nil })
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateScheduled })
		},
		state: api.StateScheduled,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && k.DelaySource == api.SourceRequeueAfter, "no failures, requeue-after")
		},
		says:           "Scheduled: the last reconcile asked to be called again after 1m0s (RequeueAfter)",
		saysToo:        "a planned re-check, not a failure. Next re-check at",
		controllerSays: "widget — healthy: 1 key, none failing; 1 polling (RequeueAfter)",
	}, {
		name: "running",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) { <-h.gate; return reconcile.Result{}, nil })
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateRunning })
		},
		state: api.StateRunning,
		check: func(k api.Key) string { return want(!k.StartedAt.IsZero(), "startedAt set") },
		says:  "Reconciling since",
	}, {
		name: "queued behind a busy worker",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script("default/busy", func(int) (reconcile.Result, error) { <-h.gate; return reconcile.Result{}, nil })
			h.send(t, "default/busy")
			h.waitKey(t, "default/busy", func(k api.Key) bool { return k.State == api.StateRunning })
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateQueued })
		},
		state:          api.StateQueued,
		check:          func(k api.Key) string { return want(!k.QueuedAt.IsZero(), "queuedAt set") },
		says:           "Queued",
		controllerSays: "widget — busy: 1 key queued behind 1 running reconcile; none failing",
	}, {
		name: "failed on a terminal error",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(int) (reconcile.Result, error) {
				return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.size must be positive"))
			})
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateFailed })
		},
		state: api.StateFailed,
		check: func(k api.Key) string {
			return want(k.LastError != nil && k.LastError.Class == api.ClassPermanent && k.NextRetryAt.IsZero(),
				"a permanent last error, no retry")
		},
		says:           "Failed with a terminal error at",
		controllerSays: "widget — 1 key failed for good: not retried until their objects change",
	}, {
		name: "idle after a success",
		drive: func(t *testing.T, h *verdictHarness) {
			h.send(t, key) // the script-less reconcile succeeds
			h.waitKey(t, key, func(k api.Key) bool { return k.State == api.StateIdle && k.Reconciles == 1 })
		},
		state: api.StateIdle,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && !k.LastSuccessAt.IsZero() && k.NextRetryAt.IsZero(), "no failures, a success, nothing pending")
		},
		says: "Converged: the last reconcile succeeded at",
	}, {
		name:        "a success while an earlier retry is still pending",
		classicOnly: true,
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(n int) (reconcile.Result, error) {
				if n == 1 {
					return reconcile.Result{}, boom
				}
				return reconcile.Result{}, nil
			})
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 1 })
			h.send(t, key) // the next change, before the retry: it succeeds
			h.waitKey(t, key, func(k api.Key) bool { return k.Reconciles == 2 })
		},
		state: api.StateScheduled,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && !k.LastSuccessAt.IsZero() && !k.NextRetryAt.IsZero() && explain.ErrorResolved(&k),
				"no failures, a success, the first failure's retry still due, the error marked resolved")
		},
		says: "a retry scheduled by an earlier failure is still pending in the queue and runs it once more",
	}, {
		// Its own retries, not events (which would pre-empt the backoff):
		// five fast ones, then an hour, as client-go's fast-slow limiter.
		name: "a transient outage is not called permanent",
		limiter: func() workqueue.TypedRateLimiter[reconcile.Request] {
			return workqueue.NewTypedItemFastSlowRateLimiter[reconcile.Request](time.Millisecond, time.Hour, 5)
		},
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, apierrors.NewServiceUnavailable("inventory API is down"), 6)
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			ok := k.LastError.Class == api.ClassTransient && k.SameErrorCount == 6 && k.Delay.Duration == time.Hour
			for i, a := range k.History {
				ok = ok && (i == 0 || a.Trigger == api.TriggerRetry && !a.Preempted)
			}
			return want(ok, "transient, the same error 6 times, each after its retry, now an hour")
		},
		says:           "The error is transient, the same on the last 6 attempts",
		saysToo:        "and the backoff is doing its job — nothing to change in the controller.",
		saysNot:        "permanent",
		controllerSays: "widget — 1 key retrying on one transient error",
	}, {
		name: "events pre-empting the backoff again and again (a hot loop)",
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, errors.New("spec.size must be positive"), 1)
			for n := 2; n <= 4; n++ { // another writer keeps changing the object
				h.send(t, key)
				h.waitKey(t, key, func(k api.Key) bool { return k.Failures == n })
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 4 && k.Reconciles == 4, "4 failures, each its own reconcile")
		},
		says: "Watch events pre-empted this key's backoff 3 times in the last 4 attempts",
	}, {
		// The reconcile writes the object's status, whose watch event comes
		// while it still runs, then fails: the key is ready before its
		// failure's delay is set, and both queues run it again at once.
		name: "a status update that re-triggers itself (the event comes during the reconcile)",
		drive: func(t *testing.T, h *verdictHarness) {
			h.script(key, func(n int) (reconcile.Result, error) {
				if n <= 5 {
					if err := h.sendDuringReconcile(key); err != nil {
						return reconcile.Result{}, err
					}
				}
				return reconcile.Result{}, boom
			})
			h.send(t, key)
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 6 && k.State == api.StateBackoff })
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			ok := k.Failures == 6 && k.Reconciles == 6 && len(k.History) == 6
			for i, a := range k.History {
				ok = ok && (i == 0 || a.Trigger == api.TriggerEvent && a.Preempted)
			}
			return want(ok, "6 failures, attempts 2-6 run by an event that pre-empted the backoff")
		},
		says: "Watch events pre-empted this key's backoff 5 times in the last 6 attempts",
		// The same transient error 6 times: but the events, not the
		// backoff, pace the retries.
		saysToo: "The error is transient, the same on the last 6 attempts",
		saysNot: "the backoff is doing its job",
	}, {
		// 45 keys failing together: whatever second boundary their retries
		// straddle, at least 20 are due within one second.
		name: "keys that failed together retry as a herd",
		drive: func(t *testing.T, h *verdictHarness) {
			herd := []string{key}
			for i := range 44 {
				herd = append(herd, fmt.Sprintf("default/h%02d", i))
			}
			fail := func(int) (reconcile.Result, error) { return reconcile.Result{}, boom }
			for _, k := range herd { // all at once, as an outage makes them fail
				h.script(k, fail)
				h.send(t, k)
			}
			for _, k := range herd {
				h.waitKey(t, k, func(k api.Key) bool { return k.Failures == 1 && k.State == api.StateBackoff })
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string { return want(k.Failures == 1, "1 failure") },
		says:  "keys are due within the same second",
	}, {
		name: "forgotten without a retry: the pending retry keeps its time",
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, boom, 1)
			resp, err := h.session.Forget(context.Background(), api.ForgetRequest{Controller: h.name, Keys: []string{key}})
			if err != nil {
				t.Fatal(err)
			}
			if want := "a pending retry keeps its time, the failure count starts again from 0"; !strings.HasSuffix(resp.Message, want) || !resp.PendingRetryKept {
				t.Errorf("forget says %q (pendingRetryKept %v), want it to end %q", resp.Message, resp.PendingRetryKept, want)
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 0 && k.LastReset != nil && k.LastReset.By == api.ResetForget && k.LastReset.Failures == 1 &&
				len(k.History) > 0 && k.FirstFailureAt.Equal(k.History[0].At),
				"failures 0, a forget that reset 1 failure, the streak kept (a forget restarts the count, not the failure)")
		},
		says:    "Backoff forgotten at",
		saysToo: " before the reset; failing since ",
	}, {
		// forget --requeue --spread: the second of two keys waits for its
		// slot, half the spread after the request; its 1m retry was later.
		name: "requeued by forget, waiting for its spread slot",
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, "default/a", boom, 1)
			h.fail(t, key, boom, 1)
			resp, err := h.session.Forget(context.Background(), api.ForgetRequest{Controller: h.name, Keys: []string{"default/a", key},
				Requeue: true, Spread: metav1.Duration{Duration: 40 * time.Second}, User: "alice", Reason: "inventory back"})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Keys) != 2 || resp.Keys[1].Key != key || resp.Keys[1].ReleaseIn.Duration != 20*time.Second {
				t.Fatalf("forget released %+v, want %s second, in 20s", resp.Keys, key)
			}
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			slot := k.LastReset.At.Add(20 * time.Second)
			return want(k.Failures == 0 && k.DelaySource == api.SourceSpread && k.NextRetryAt.Equal(slot) && !k.EarlierRetry &&
				k.LastReset.By == api.ResetForget && explain.Failing(&k),
				"failures 0, its retry at the spread slot (delaySource spread), failing still")
		},
		says:    "Requeued by forget at ",
		saysToo: " (alice (unverified): inventory back), waiting for its spread slot at ",
		// Both keys fail still: default/a, released at once, failed again.
		controllerSays: "widget — 2 keys retrying",
	}, {
		// A forget restarts the failure count, not the run of one error.
		name: "a failure after a forget",
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, boom, 1)
			if _, err := h.session.Forget(context.Background(), api.ForgetRequest{Controller: h.name, Keys: []string{key}}); err != nil {
				t.Fatal(err)
			}
			h.send(t, key) // the object changes: reconciled now, fails again
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 1 && k.SameErrorCount == 2 })
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.Failures == 1 && k.SameErrorCount == 2 && len(k.History) > 0 && k.FirstFailureAt.Equal(k.History[0].At),
				"1 failure counted, the same error twice, failing since the first failure (a forget restarts the count, not the failure)")
		},
		says:    ", the same on the last 2 attempts since ",
		saysToo: " (the failure count restarted among them); failing since ",
	}, {
		name:        "an event does not move a sooner retry",
		classicOnly: true,
		drive: func(t *testing.T, h *verdictHarness) {
			h.fail(t, key, boom, 1)
			h.send(t, key) // runs now, fails again: 2m, but the 1m wait is sooner
			h.waitKey(t, key, func(k api.Key) bool { return k.Failures == 2 })
		},
		state: api.StateBackoff,
		check: func(k api.Key) string {
			return want(k.EarlierRetry && k.Delay.Duration == 2*time.Minute, "earlierRetry, a 2m delay")
		},
		says: "the queue keeps the sooner time",
	}}
	for _, pq := range []bool{true, false} {
		for _, row := range rows {
			if row.classicOnly && pq {
				continue
			}
			t.Run(fmt.Sprintf("%s/pq=%v", row.name, pq), func(t *testing.T) {
				var h *verdictHarness
				if row.limiter != nil {
					h = startVerdictControllerWith(t, pq, row.limiter())
				} else {
					h = startVerdictController(t, pq)
				}
				row.drive(t, h)
				h.checkRow(t, key, row)
			})
		}
	}
	t.Run("client-go gives up after its retries", func(t *testing.T) {
		h := newVerdictEndpoint(t, "sample")
		probe := instrument.NewTyped("sample", instrument.TypedOptions[string]{Registry: h.reg, UsePriorityQueue: ptr.To(false)})
		q := probe.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(
			probe.RateLimiter(instrument.NewExponentialLimiter[string](time.Millisecond, time.Second)),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "sample"}))
		t.Cleanup(q.ShutDown)
		q.Add(key)
		for range 4 { // sample-controller's handleErr with maxRetries 3
			k, _ := q.Get()
			if err := probe.Track(k, func() error { return boom }); err != nil && q.NumRequeues(k) < 3 {
				q.AddRateLimited(k)
			} else {
				q.Forget(k)
			}
			q.Done(k)
		}
		h.checkRow(t, key, verdictRow{
			state: api.StateFailed,
			check: func(k api.Key) string {
				return want(k.Failures == 0 && k.LastReset != nil && k.LastReset.By == api.ResetGaveUp && k.LastReset.Failures == 3,
					"failures 0, gave up after 3")
			},
			says: "Gave up after 3 retries",
		})
	})
}
