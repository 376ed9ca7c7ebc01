package instrument

import (
	"time"

	"github.com/go-logr/logr"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// NewQueue has the signature of controller.Options.NewQueue: it builds the
// queue controller-runtime would (priority or classic, per UsePriorityQueue)
// and instruments it.
func (p *TypedProbe[T]) NewQueue(name string, rl workqueue.TypedRateLimiter[T]) workqueue.TypedRateLimitingInterface[T] {
	return p.newQueue(name, rl, logr.Logger{})
}

// newQueue is NewQueue with the controller's logger, which ControllerOptions
// knows when the options name one: the priority queue logs through it, as
// controller-runtime's default queue does, and not through the global
// logger, which a program that names its controllers' loggers may never set
// (controller-runtime then warns that log.SetLogger was never called).
func (p *TypedProbe[T]) newQueue(name string, rl workqueue.TypedRateLimiter[T], log logr.Logger) workqueue.TypedRateLimitingInterface[T] {
	if log.GetSink() == nil {
		log = ctrllog.Log
	}
	if p.usePQ {
		return p.Queue(priorityqueue.New(name, func(o *priorityqueue.Opts[T]) {
			o.RateLimiter = rl
			o.Log = log.WithValues("controller", name) // as controller-runtime's default queue
		}))
	}
	return p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(rl, workqueue.TypedRateLimitingQueueConfig[T]{Name: name}))
}

// Queue decorates a work queue so that watch events, requeues and dequeues are
// recorded, and so that the endpoint can retry a key now. When inner is a
// controller-runtime priority queue, so is the result: priorities survive.
func (p *TypedProbe[T]) Queue(inner workqueue.TypedRateLimitingInterface[T]) workqueue.TypedRateLimitingInterface[T] {
	p.mu.Lock()
	p.queue = inner
	p.mu.Unlock()
	p.active.Store(true)
	q := &queue[T]{TypedRateLimitingInterface: inner, store: p.store}
	p.store.seesHandouts.Store(true)
	pq, ok := inner.(priorityqueue.PriorityQueue[T])
	p.store.pq.Store(ok)
	if ok {
		return &priorityQueue[T]{queue: q, pq: pq}
	}
	return q
}

// queue records what passes through a classic rate-limiting queue.
type queue[T comparable] struct {
	workqueue.TypedRateLimitingInterface[T]
	store *store[T]
}

var _ workqueue.TypedRateLimitingInterface[string] = &queue[string]{}

// Add is a watch event (the controller's own requeues use AddRateLimited and AddAfter).
func (q *queue[T]) Add(item T) {
	q.store.added(item)
	q.TypedRateLimitingInterface.Add(item)
}

// AddAfter is a scheduled re-check: RequeueAfter, or the user's own delay.
func (q *queue[T]) AddAfter(item T, d time.Duration) {
	if d > 0 {
		q.store.after(item, d)
	} else {
		q.store.added(item)
	}
	q.TypedRateLimitingInterface.AddAfter(item, d)
}

// Get records that a worker took the key.
func (q *queue[T]) Get() (T, bool) {
	item, shutdown := q.TypedRateLimitingInterface.Get()
	if !shutdown {
		q.store.dequeued(item)
	}
	return item, shutdown
}

// Done records that the worker is finished with the key, unless the
// reconciler decorator has recorded its outcome (see store.inline).
func (q *queue[T]) Done(item T) {
	if !q.store.inline.Load() {
		q.store.done(item)
	}
	q.TypedRateLimitingInterface.Done(item)
}

// priorityQueue is queue for a controller-runtime priority queue: it keeps
// AddWithOpts and GetWithPriority, which the controller uses when present.
type priorityQueue[T comparable] struct {
	*queue[T]
	pq priorityqueue.PriorityQueue[T]
}

var _ priorityqueue.PriorityQueue[string] = &priorityQueue[string]{}

// AddWithOpts records by kind of add: rate-limited (the limiter records the
// delay), delayed (RequeueAfter) or immediate (a watch event).
func (q *priorityQueue[T]) AddWithOpts(o priorityqueue.AddOpts, items ...T) {
	for _, item := range items {
		switch {
		case o.RateLimited:
			// When, called later by the queue, records the delay; the
			// reconciler decorator, if inline, recorded the outcome.
			if !q.store.inline.Load() {
				q.store.requeued(item)
			}
		case o.After > 0:
			q.store.after(item, o.After)
		default:
			q.store.added(item)
		}
	}
	q.pq.AddWithOpts(o, items...)
}

// GetWithPriority records that a worker took the key.
func (q *priorityQueue[T]) GetWithPriority() (T, int, bool) {
	item, prio, shutdown := q.pq.GetWithPriority()
	if !shutdown {
		q.store.dequeued(item)
	}
	return item, prio, shutdown
}
