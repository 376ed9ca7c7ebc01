package instrument

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// reconciler decorates a controller-runtime reconciler: it marks the key
// running, then records the outcome, duration and error. It never changes the
// result or the error, but for the RequeueAfter jitter Options.Jitter asks for.
type reconciler[T comparable] struct {
	inner reconcile.TypedReconciler[T]
	probe *TypedProbe[T]
}

// Reconcile delegates to the wrapped reconciler. A panic is recorded as the
// error controller-runtime turns it into, then re-raised for it to handle.
func (r *reconciler[T]) Reconcile(ctx context.Context, item T) (res reconcile.Result, err error) {
	r.probe.markActive()
	s := r.probe.store
	began, held := s.startedAt(item)
	returned := false
	defer func() {
		if returned {
			return // recover only when Reconcile did not return: a call less per reconcile
		}
		if p := recover(); p != nil {
			s.panicked(item, p, began)
			panic(p)
		}
	}()
	res, err = r.inner.Reconcile(ctx, item)
	returned = true
	if res.RequeueAfter > 0 && r.probe.jitter > 0 {
		res.RequeueAfter = jitter(res.RequeueAfter, r.probe.jitter) // asked for with Options.Jitter
	}
	s.finishedIn(held, item, res, err, began)
	return res, err
}
