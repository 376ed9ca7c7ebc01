package demo

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// errNoStorageClass is the permanent user error both the naive and the
// well-behaved controllers find; only what they do about it differs. It says
// it is a validation failure the way HTTP clients' errors do, with a status
// code (422), so the instrument classifies it as permanent, as it would an
// API server's Invalid.
var errNoStorageClass error = invalidSpecError("spec.storageClass must be set")

// invalidSpecError is a spec the controller cannot act on.
type invalidSpecError string

// Error implements error.
func (e invalidSpecError) Error() string { return string(e) }

// StatusCode is 422 Unprocessable Entity: retrying the same spec fails the same way.
func (e invalidSpecError) StatusCode() int { return 422 }

// outageReconciler syncs each object with the flaky dependency: a transient
// failure, rightly returned as an error so the rate limiter backs off.
type outageReconciler struct{ env *env }

func (r *outageReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.env.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.env.dep.sync(req.Name); err != nil {
		return reconcile.Result{}, fmt.Errorf("sync with inventory API: %w", err)
	}
	return reconcile.Result{}, nil
}

// naiveReconciler returns an error for an invalid spec, forever: the
// anti-pattern. Retries cannot fix a user's mistake; they only grow the delay
// until the user's fix itself waits out the backoff.
type naiveReconciler struct{ env *env }

func (r *naiveReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.env.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Data[storageClassKey] == "" {
		return reconcile.Result{}, errNoStorageClass
	}
	return reconcile.Result{}, nil
}

// wellBehavedReconciler surfaces the same user error as a condition and
// stops: a terminal error is reported but not retried, and the next watch
// event (the user's fix) is reconciled at once.
type wellBehavedReconciler struct{ env *env }

func (r *wellBehavedReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.env.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	want := "Ready=True"
	if cm.Data[storageClassKey] == "" {
		want = "Ready=False reason=InvalidSpec message=" + errNoStorageClass.Error()
	}
	// Writing only on change keeps a real cluster's watch from echoing our own
	// update back as a new event.
	if cm.Annotations[conditionAnnotation] != want {
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations[conditionAnnotation] = want
		if err := r.env.client.Update(ctx, &cm); err != nil {
			return reconcile.Result{}, fmt.Errorf("record condition: %w", err) // transient: retry
		}
	}
	if cm.Data[storageClassKey] == "" {
		return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("invalid spec: %w", errNoStorageClass))
	}
	return reconcile.Result{}, nil
}

// pollingReconciler waits for an external resource that has no watch, so it
// re-checks on a fixed interval with RequeueAfter: not a failure, no backoff.
type pollingReconciler struct{ env *env }

func (r *pollingReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.env.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if time.Now().Before(r.env.readyAt(req.Name)) {
		return reconcile.Result{RequeueAfter: r.env.pollEvery}, nil
	}
	return reconcile.Result{}, nil
}

// conflictsReconciler writes the generation it observed back onto the object.
// Now and then another writer updates the object between our read and our
// write; the API server (or the fake client) then refuses our stale update
// with a real resourceVersion conflict, which the next pass resolves.
type conflictsReconciler struct {
	env *env

	mu sync.Mutex
	// conflicted remembers, per key, the generation a conflict was already
	// injected for, so that the retry succeeds.
	conflicted map[string]string
}

func (r *conflictsReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.env.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	gen := cm.Annotations[generationAnnotation]
	if cm.Annotations[observedAnnotation] == gen {
		return reconcile.Result{}, nil
	}
	if r.injectConflict(req.Name, gen) {
		other := cm.DeepCopy()
		other.Annotations[otherWriterAnnotation] = strconv.FormatInt(time.Now().UnixNano(), 10)
		if err := r.env.client.Update(ctx, other); err != nil {
			return reconcile.Result{}, fmt.Errorf("simulate a concurrent writer: %w", err)
		}
	}
	cm.Annotations[observedAnnotation] = gen
	if err := r.env.client.Update(ctx, &cm); err != nil {
		return reconcile.Result{}, err // a conflict: the next pass reads the new version
	}
	return reconcile.Result{}, nil
}

// injectConflict decides, once per key and generation, whether a concurrent
// writer gets in first (about one time in three).
func (r *conflictsReconciler) injectConflict(name, gen string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conflicted[name] == gen {
		return false
	}
	if r.env.rand.IntN(3) != 0 {
		return false
	}
	r.conflicted[name] = gen
	return true
}

// slowReconciler does seconds of work per pass, so `running` and `queued`
// show up, then re-checks later.
type slowReconciler struct{ env *env }

func (r *slowReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.env.client.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	work := r.env.opts.scale(time.Duration(2+r.env.rand.IntN(5)) * time.Second)
	t := time.NewTimer(work)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		// Shutting down: give the worker back at once.
		return reconcile.Result{}, ctx.Err()
	}
	return reconcile.Result{RequeueAfter: r.env.slowEvery}, nil
}
