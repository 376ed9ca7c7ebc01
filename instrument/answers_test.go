package instrument

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"golang.org/x/time/rate"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// twinLimiter is the queue's limiter in TestAnswersMatchTheQueues: the
// probe's own (fused) limiter, with client-go's limiter beside it getting
// the same calls. client-go's is the independent truth: its NumRequeues and
// its delays are what the endpoint's failures and delay must say.
//
// The priority queue calls When from its own goroutine, when it flushes
// the adds it buffers: whens counts the calls, so that the test knows when
// the When of a rate-limited add has happened.
type twinLimiter struct {
	probe workqueue.TypedRateLimiter[reconcile.Request]
	twin  workqueue.TypedRateLimiter[reconcile.Request]
	t     *testing.T

	mu    sync.Mutex
	last  map[reconcile.Request]time.Duration // client-go's last delay per key
	whens int
}

func (l *twinLimiter) When(item reconcile.Request) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	d, want := l.probe.When(item), l.twin.When(item)
	if d != want {
		l.t.Errorf("%s: When = %v, client-go's %v", item, d, want)
	}
	l.last[item] = want
	l.whens++
	return d
}

func (l *twinLimiter) Forget(item reconcile.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.probe.Forget(item)
	l.twin.Forget(item)
}

// lastDelay is client-go's last delay for item, once whens Whens have been
// made (the test waits for them); its NumRequeues then too.
func (l *twinLimiter) lastDelay(t *testing.T, item reconcile.Request, whens int) (d time.Duration, ok bool, requeues int) {
	t.Helper()
	eventually(t, waitFor, func() (bool, string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.whens >= whens, fmt.Sprintf("the queue has made %d of the %d Whens of the rate-limited adds", l.whens, whens)
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	d, ok = l.last[item]
	return d, ok, l.twin.NumRequeues(item)
}

// forgetTwin is what client-go's Forget does to its count, for a forget
// through the endpoint (which resets the probe's count itself).
func (l *twinLimiter) forgetTwin(item reconcile.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.twin.Forget(item)
}

func (l *twinLimiter) NumRequeues(item reconcile.Request) int { return l.probe.NumRequeues(item) }

// outcomeKind is what the scripted reconciler does on one reconcile.
type outcomeKind int

const (
	doError outcomeKind = iota
	doOtherError
	doTerminal
	doSuccess
	doRequeueAfter
	doRequeue
	doPanic
	outcomeKinds
)

// TestAnswersMatchTheQueues checks the endpoint's answers, after each of a
// long random run of reconciles, against what the real queues and
// client-go's limiter hold, not against the store's own reasoning: a worker
// loop that is controller-runtime's (processNextWorkItem and
// reconcileHandler, copied call for call) runs three keys through the
// probe's decorated queue, limiter and reconciler, with every outcome a
// reconcile can have, watch events, and forgets through the endpoint. After
// every reconcile it compares each key's failures with client-go's
// NumRequeues, the queue's NumRequeues with it too, the delay with the one
// client-go chose, and the reconciles, failures in total, last error and
// history with what the loop did; inside a reconcile, the key must read
// running.
func TestAnswersMatchTheQueues(t *testing.T) {
	forEachQueue(t, func(t *testing.T, pq bool) {
		const base, maxDelay = time.Microsecond, 64 * time.Microsecond
		ep := newTestEndpoint(t)
		p := New(ctrlName, Options{Registry: ep.Registry, UsePriorityQueue: ptr.To(pq), DisableMetrics: true})
		own := p.RateLimiter(nil).(*rateLimiter[reconcile.Request])
		own.fused.base, own.fused.max = base, maxDelay // the classic queue's token bucket stays
		var twin workqueue.TypedRateLimiter[reconcile.Request] = workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](base, maxDelay)
		if !pq {
			// client-go's default, with the same exponential part. Under
			// 100 failures in all, the bucket's burst: it never delays.
			twin = workqueue.NewTypedMaxOfRateLimiter(twin,
				&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: rate.NewLimiter(rate.Limit(10), 100)})
		}
		lim := &twinLimiter{probe: own, twin: twin, t: t, last: map[reconcile.Request]time.Duration{}}
		q := p.NewQueue(ctrlName, lim)
		t.Cleanup(q.ShutDown)
		prio, isPQ := q.(priorityqueue.PriorityQueue[reconcile.Request])
		if isPQ != pq {
			t.Fatalf("NewQueue built a priority queue: %v, want %v", isPQ, pq)
		}

		keys := []string{"default/a", "default/b", "other/c"}
		type want struct {
			reconciles, totalFailures int
			lastError                 string
			history                   []string
			pending                   bool // the loop put it in the queue and has not got it since
		}
		wants := map[string]*want{}
		for _, k := range keys {
			wants[k] = &want{}
		}
		rng := rand.New(rand.NewPCG(46, 46))
		var doing outcomeKind
		whens := 0 // the rate-limited adds the loop made: each is a When
		rec := p.Reconciler(reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			if k := ep.mustKey(ctrlName, req.String()); k.State != api.StateRunning {
				t.Errorf("%s inside its reconcile: state %s, want running", req, k.State)
			}
			switch doing {
			case doError:
				return reconcile.Result{}, errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
			case doOtherError:
				return reconcile.Result{}, fmt.Errorf("update %s: the object has been modified", req)
			case doTerminal:
				return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.replicas: must be positive"))
			case doRequeueAfter:
				return reconcile.Result{RequeueAfter: 50 * time.Microsecond}, nil
			case doRequeue:
				return reconcile.Result{Requeue: true}, nil //nolint:staticcheck // controller-runtime still honours it
			case doPanic:
				panic("boom")
			}
			return reconcile.Result{}, nil
		}))

		// get is the worker's GetWithPriority, bounded: nothing the loop
		// put in the queue may stay out of reach.
		get := func() reconcile.Request {
			stop := time.AfterFunc(waitFor, q.ShutDown)
			defer stop.Stop()
			var item reconcile.Request
			var shutdown bool
			if pq {
				item, _, shutdown = prio.GetWithPriority()
			} else {
				item, shutdown = q.Get()
			}
			if shutdown {
				t.Fatalf("no key came out of the queue in %v; pending: %+v", waitFor, wants)
			}
			return item
		}
		// reconcile is controller-runtime's reconcileHandler for one item.
		reconcileOne := func(req reconcile.Request) {
			defer q.Done(req)
			w := wants[req.String()]
			w.pending = false
			w.reconciles++
			doing = outcomeKind(rng.IntN(int(outcomeKinds)))
			res, err := func() (res reconcile.Result, err error) {
				defer func() { // controller-runtime's RecoverPanic, on by default
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v [recovered]", r)
					}
				}()
				return rec.Reconcile(context.Background(), req)
			}()
			outcome := api.OutcomeSuccess
			switch {
			case err != nil:
				w.totalFailures++
				w.lastError = err.Error()
				if errors.Is(err, reconcile.TerminalError(nil)) {
					outcome = api.OutcomeTerminal
					break
				}
				outcome = api.OutcomeError
				w.pending = true
				whens++
				if pq {
					prio.AddWithOpts(priorityqueue.AddOpts{RateLimited: true}, req)
				} else {
					q.AddRateLimited(req)
				}
			case res.RequeueAfter > 0:
				outcome = api.OutcomeRequeueAfter
				w.pending = true
				q.Forget(req)
				if pq {
					prio.AddWithOpts(priorityqueue.AddOpts{After: res.RequeueAfter}, req)
				} else {
					q.AddAfter(req, res.RequeueAfter)
				}
			case res.Requeue: //nolint:staticcheck // controller-runtime still honours it
				outcome = api.OutcomeRequeue
				w.pending = true
				whens++
				if pq {
					prio.AddWithOpts(priorityqueue.AddOpts{RateLimited: true}, req)
				} else {
					q.AddRateLimited(req)
				}
			default:
				q.Forget(req)
			}
			w.history = append(w.history, outcome)
		}
		check := func(step int) {
			t.Helper()
			for _, key := range keys {
				w, req := wants[key], reqOf(key)
				delay, chosen, failures := lim.lastDelay(t, req, whens) // first: the endpoint is read after the Whens
				k, ok := ep.key(ctrlName, key)
				if !ok {
					if w.reconciles > 0 {
						t.Fatalf("step %d: %s reconciled %d times, unknown to the endpoint", step, key, w.reconciles)
					}
					continue
				}
				if k.Failures != failures || q.NumRequeues(req) != failures {
					t.Errorf("step %d: %s: failures %d, the queue's NumRequeues %d; client-go's NumRequeues %d",
						step, key, k.Failures, q.NumRequeues(req), failures)
				}
				wantHistory := w.history[max(0, len(w.history)-api.HistorySize):]
				last := ""
				if len(wantHistory) > 0 {
					last = wantHistory[len(wantHistory)-1]
				}
				// Right after a When (a terminal error or a forget clears the
				// retry and its delay).
				if chosen && (last == api.OutcomeError || last == api.OutcomeRequeue) && k.Delay.Duration != delay {
					t.Errorf("step %d: %s: delay %v, client-go chose %v", step, key, k.Delay.Duration, delay)
				}
				if k.Reconciles != w.reconciles || k.TotalFailures != w.totalFailures {
					t.Errorf("step %d: %s: reconciles %d, totalFailures %d; the loop ran %d, %d failed",
						step, key, k.Reconciles, k.TotalFailures, w.reconciles, w.totalFailures)
				}
				if got := ""; k.LastError != nil {
					got = k.LastError.Message
					if got != w.lastError {
						t.Errorf("step %d: %s: last error %q, the reconcile returned %q", step, key, got, w.lastError)
					}
				} else if w.lastError != "" {
					t.Errorf("step %d: %s: no last error, the reconcile returned %q", step, key, w.lastError)
				}
				if got := outcomes(k.History); !slices.Equal(got, wantHistory) {
					t.Errorf("step %d: %s: history %v, the loop's %v", step, key, got, wantHistory)
				}
				if !w.pending && last == api.OutcomeTerminal && k.State != api.StateFailed {
					t.Errorf("step %d: %s: state %s after a terminal error, want failed", step, key, k.State)
				}
			}
		}

		const steps = 120 // about 70 failures: under the classic bucket's burst of 100
		for step := range steps {
			// A watch event: always when the queue would be empty, else
			// now and then, also for a key waiting out its backoff.
			if idle := !slices.ContainsFunc(keys, func(k string) bool { return wants[k].pending }); idle || rng.IntN(6) == 0 {
				key := keys[rng.IntN(len(keys))]
				wants[key].pending = true
				q.Add(reqOf(key))
			}
			// A forget through the endpoint, with or without a retry now.
			if rng.IntN(10) == 0 {
				key := keys[rng.IntN(len(keys))]
				if _, known := ep.key(ctrlName, key); known {
					requeue := rng.IntN(2) == 0
					ep.forget(api.ForgetRequest{Controller: ctrlName, Keys: []string{key}, Requeue: requeue, User: "test"})
					lim.forgetTwin(reqOf(key))
					wants[key].history = append(wants[key].history, api.OutcomeForgotten)
					wants[key].pending = wants[key].pending || requeue
					check(step)
				}
			}
			reconcileOne(get())
			check(step)
			if t.Failed() {
				return
			}
		}
	})
}
