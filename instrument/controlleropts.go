package instrument

import (
	"github.com/go-logr/logr"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// ControllerOptions returns the controller options to build the controller
// with — the user's own, if given, with their rate limiter and queue (or the
// defaults controller-runtime would use for them) instrumented and every
// other field kept as given:
//
//	ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).
//		WithOptions(probe.ControllerOptions(controller.Options{MaxConcurrentReconciles: 4}))
//
// Instrumenting never changes the controller. UsePriorityQueue stays as
// given: unset, controller-runtime takes the manager's
// ctrl.Options{Controller: config.Controller{UsePriorityQueue: …}}, and then
// its own default (the priority queue), and the probe follows what it chose
// (the probe's Options.UsePriorityQueue, if it says otherwise, is logged and
// overruled). A custom RateLimiter or NewQueue is kept and wrapped (a custom
// limiter's delays report source "limiter"). More than one options value is
// a programming error.
func (p *TypedProbe[T]) ControllerOptions(opts ...controller.TypedOptions[T]) controller.TypedOptions[T] {
	var o controller.TypedOptions[T]
	switch len(opts) {
	case 0:
	case 1:
		o = opts[0]
	default:
		panic("instrument: ControllerOptions takes at most one options value")
	}
	given, newQueue := o.RateLimiter, o.NewQueue
	if o.UsePriorityQueue != nil {
		// The controller says which queue: nothing is left to learn.
		p.followQueue(*o.UsePriorityQueue, "the controller's options")
		o.RateLimiter = p.RateLimiter(given)
		o.NewQueue = func(name string, rl workqueue.TypedRateLimiter[T]) workqueue.TypedRateLimitingInterface[T] {
			return p.buildQueue(name, rl, newQueue, o.Logger)
		}
		return o
	}
	// Unset, the queue is decided when the controller is built, from the
	// manager's config, which these options cannot see; writing a value here
	// would overrule it. So the limiter is left unset too: controller-runtime
	// then hands NewQueue the default limiter of the queue it chose, which
	// says which one that is. The user's own limiter is put back there.
	// Until then (a standby never starts its controllers) the endpoint
	// describes the limiter of the queue the probe expects.
	p.RateLimiter(given)
	o.RateLimiter = nil
	o.NewQueue = func(name string, chosen workqueue.TypedRateLimiter[T]) workqueue.TypedRateLimitingInterface[T] {
		pq, known := defaultLimiterQueue(chosen)
		rl := given
		switch {
		case known:
			p.followQueue(pq, "controller-runtime (the manager's config.Controller, else its default)")
		default:
			// Not a default this version of the probe knows: keep the
			// limiter as it is, and build the queue the probe is told to.
			ctrllog.Log.WithName("instrument").Info("cannot tell which queue controller-runtime chose from its default limiter; building the one Options.UsePriorityQueue says: set UsePriorityQueue in the controller's options to be sure",
				"controller", name, "limiter", chosen, "usePriorityQueue", p.usePQ)
			if rl == nil {
				rl = chosen
			}
		}
		return p.buildQueue(name, p.RateLimiter(rl), newQueue, o.Logger)
	}
	return o
}

// buildQueue builds the controller's queue with rl, through the user's
// NewQueue if there is one, and instruments it; log is the controller's
// logger from its options (unset: controller-runtime's global one).
func (p *TypedProbe[T]) buildQueue(name string, rl workqueue.TypedRateLimiter[T],
	newQueue func(string, workqueue.TypedRateLimiter[T]) workqueue.TypedRateLimitingInterface[T], log logr.Logger) workqueue.TypedRateLimitingInterface[T] {
	p.adoptName(name) // controller-runtime's name for the controller
	if newQueue != nil {
		return p.Queue(newQueue(name, rl))
	}
	return p.newQueue(name, rl, log)
}

// followQueue makes the probe's default limiter and queue those of the
// queue the controller runs (pq: the priority queue), saying so when the
// probe's own Options.UsePriorityQueue disagreed.
func (p *TypedProbe[T]) followQueue(pq bool, decidedBy string) {
	if p.pqGiven && p.usePQ != pq {
		ctrllog.Log.WithName("instrument").Info("Options.UsePriorityQueue differs from the controller's queue; the probe follows the controller",
			"controller", p.Name(), "usePriorityQueue", p.usePQ, "controllerUsesPriorityQueue", pq, "decidedBy", decidedBy)
	}
	p.usePQ = pq
	p.store.pq.Store(pq)
}

// defaultLimiterQueue reads which queue controller-runtime chose from the
// default limiter it built for it (controller.NewTypedUnmanaged): per-item
// exponential for the priority queue, client-go's max-of default for the
// classic one. known is false for any other limiter.
func defaultLimiterQueue[T comparable](rl workqueue.TypedRateLimiter[T]) (pq, known bool) {
	switch rl.(type) {
	case *workqueue.TypedItemExponentialFailureRateLimiter[T]:
		return true, true
	case *workqueue.TypedMaxOfRateLimiter[T]:
		return false, true
	}
	return false, false
}
