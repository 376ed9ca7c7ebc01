package instrument

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestTriggers records why each attempt ran, on both real queues: the first
// reconcile, a rate-limited retry, a watch event that pre-empts a pending
// backoff, a RequeueAfter coming due, and a user's retry now.
func TestTriggers(t *testing.T) {
	const base = 300 * time.Millisecond
	forEachQueue(t, func(t *testing.T, pq bool) {
		const key = "default/w1"
		failure := errors.New("connection refused")
		rl := NewExponentialLimiter[reconcile.Request](base, time.Minute)
		h := startController(t, pq, rl, func(_ context.Context, _ string, call int) (reconcile.Result, error) {
			switch call {
			case 1, 2, 3:
				return reconcile.Result{}, failure
			case 4:
				return reconcile.Result{RequeueAfter: base / 3}, nil
			}
			return reconcile.Result{}, nil
		})
		h.send(key)
		h.wait(key, "the retry failed", func(k api.KeyDetail) bool { return k.Failures == 2 && k.State == api.StateBackoff })
		h.send(key) // pre-empts the retry due 2·base after the second failure
		h.wait(key, "the RequeueAfter came due and succeeded", func(k api.KeyDetail) bool { return k.Reconciles >= 5 })
		k := h.wait(key, "idle, nothing pending", func(k api.KeyDetail) bool {
			return k.State == api.StateIdle && k.NextRetryAt.IsZero()
		})
		// The fourth run is a retry on both queues, for different reasons:
		// the delaying queue kept the second failure's sooner wait over the
		// third's, the priority queue's event consumed that wait and the
		// third failure's retry came due.
		want := []string{api.TriggerFirst, api.TriggerRetry, api.TriggerEvent, api.TriggerRetry, api.TriggerRequeueAfter}
		got := triggers(k.History)
		if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			t.Errorf("triggers = %v, want %v first", got, want)
		}
		if !k.History[2].Preempted || k.History[1].Preempted {
			t.Errorf("preempted = %v, %v on attempts 2 and 3; want only the event's set", k.History[1].Preempted, k.History[2].Preempted)
		}

		n := k.Reconciles
		h.ep.forget(api.ForgetRequest{Controller: ctrlName, Keys: []string{key}, Requeue: true})
		k = h.wait(key, "the retry now ran", func(k api.KeyDetail) bool { return k.Reconciles == n+1 })
		last := k.History[len(k.History)-1]
		if last.Trigger != api.TriggerForget || last.Outcome != api.OutcomeSuccess {
			t.Errorf("after a forget with requeue: last attempt %s by %s, want success by %s", last.Outcome, last.Trigger, api.TriggerForget)
		}
	})
}

// triggers lists the triggers of the attempts that were reconciles.
func triggers(h []api.Attempt) []string {
	var out []string
	for _, a := range h {
		if a.Outcome != api.OutcomeForgotten {
			out = append(out, a.Trigger)
		}
	}
	return out
}
