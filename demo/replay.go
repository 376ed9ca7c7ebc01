package demo

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// Replay is the demo's world played deterministically, for golden tests of
// what the clients show: the same controllers, keys, limiters, error texts
// and seeded choices as `kubectl backoff demo --seed N`, each a real probe on
// one fake clock. Instead of running controllers, whose timing depends on
// the scheduler, an event loop plays the demo's world — the first list, the
// outages' resyncs, users' edits, other writers, retries, re-checks and the
// slow controller's workers — in time order through the probes' decorators
// (Reconciler, RateLimiter When and Forget) as controller-runtime calls
// them. One simplification: a watch event replaces a key's pending retry
// rather than adding a second one.
//
//	r, err := demo.newReplay(demo.Options{Keys: 200, Speed: 1, Seed: 7}, start, 70*time.Second)
//	defer r.Close()
//	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: r.Registry}))
type Replay struct {
	// Registry holds the demo's six probes; serve it with instrument.NewHandler.
	Registry *instrument.Registry
	// Clock is the probes' clock, at the end of the replay.
	Clock *clocktesting.FakeClock

	env    *env
	counts []int
	ctls   []*replayed
	events replayEvents
	seq    int
	// pending is each key's one live reconcile event (its seq).
	pending map[string]int
	// conflicts: each key's generation, and the one a conflict was injected for.
	generation, conflicted map[string]int
	// The slow controller's workers: keys running, and keys due but waiting.
	running map[string]*slowRun
	waiting []string
	// reconcileIDs numbers the reconciles of the log (Options.ControllerLog).
	reconcileIDs int
}

// replayed is one scenario's controller in a Replay.
type replayed struct {
	sc      *scenario
	limiter workqueue.TypedRateLimiter[reconcile.Request]
	rec     reconcile.Reconciler
}

// slowRun is a slow reconcile in progress: its worker goroutine says it
// entered, waits on release, then closes done.
type slowRun struct {
	entered, release, done chan struct{}
	res                    reconcile.Result
}

// newReplay plays the demo of opts (Keys, Seed, Speed, Namespace, Outage,
// OutageEvery; not Jitter, whose randomness no seed fixes) from start for
// elapsed, writing its controllers' log to ControllerLog if set (with the
// replay's times). Close releases the slow controller's workers.
func newReplay(opts Options, start time.Time, elapsed time.Duration) (*Replay, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Jitter != 0 {
		return nil, errors.New("a replay cannot jitter: Jitter draws from no seed")
	}
	if opts.Seed == 0 {
		return nil, errors.New("a replay needs a Seed")
	}
	opts = opts.withDefaults()
	r := &Replay{
		Registry: instrument.NewRegistry(),
		Clock:    clocktesting.NewFakeClock(start),
		counts:   split(opts.Keys),
		pending:  map[string]int{}, generation: map[string]int{}, conflicted: map[string]int{},
		running: map[string]*slowRun{},
	}
	r.env = newEnv(&opts, r.counts, start)
	r.env.dep.now = r.Clock.Now
	for i := range scenarios {
		sc := &scenarios[i]
		probe := newProbe(r.Registry, sc, 0, instrument.Options{Clock: r.Clock})
		c := &replayed{sc: sc, limiter: probe.RateLimiter(r.env.limiter(sc))}
		c.rec = opts.loggedReconciler(sc.name, r.Clock.Now, &r.reconcileIDs, probe.Reconciler(reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			return r.outcome(c.sc.name, req.Name)
		})))
		r.ctls = append(r.ctls, c)
	}
	r.play(start, start.Add(elapsed))
	return r, nil
}

// Close releases the slow reconciles still running.
func (r *Replay) Close() {
	for _, run := range r.running {
		close(run.release)
		<-run.done
	}
	r.running = map[string]*slowRun{}
}

// outcome is what the demo's reconciler of scenario ctl (reconcilers.go)
// returns for name at the replay's time.
func (r *Replay) outcome(ctl, name string) (reconcile.Result, error) {
	switch ctl {
	case outageName:
		if err := r.env.dep.sync(name); err != nil {
			return reconcile.Result{}, fmt.Errorf("sync with inventory API: %w", err)
		}
	case naiveName:
		return reconcile.Result{}, errNoStorageClass
	case wellBehavedName:
		return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("invalid spec: %w", errNoStorageClass))
	case pollingName:
		if r.Clock.Now().Before(r.env.readyAt(name)) {
			return reconcile.Result{RequeueAfter: r.env.pollEvery}, nil
		}
	case conflictsName:
		// conflictsReconciler.injectConflict: once per generation, one time in three.
		gen := r.generation[name]
		if gen > 0 && r.conflicted[name] != gen && r.env.rand.IntN(3) == 0 {
			r.conflicted[name] = gen
			return reconcile.Result{}, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, name,
				errors.New("the object has been modified; please apply your changes to the latest version and try again"))
		}
	case slowName:
		run := r.running[name]
		close(run.entered) // the decorator has marked the key running
		<-run.release      // busy until the replay says the work is done
		return reconcile.Result{RequeueAfter: r.env.slowEvery}, nil
	}
	return reconcile.Result{}, nil
}

// replayEvent is a reconcile of ctl's key due at a time, or, with fn,
// something the world does then.
type replayEvent struct {
	at       time.Time
	seq      int
	ctl, key string
	fn       func()
}

// replayEvents is a heap of events, earliest (then first scheduled) first.
type replayEvents []replayEvent

func (h replayEvents) Len() int { return len(h) }
func (h replayEvents) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h replayEvents) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *replayEvents) Push(x any)   { *h = append(*h, x.(replayEvent)) }
func (h *replayEvents) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// reconcileAt schedules a reconcile of key, replacing the one pending.
func (r *Replay) reconcileAt(t time.Time, ctl, key string) {
	r.seq++
	heap.Push(&r.events, replayEvent{at: t, seq: r.seq, ctl: ctl, key: key})
	r.pending[ctl+"/"+key] = r.seq
}

// do schedules something the world does at t.
func (r *Replay) do(t time.Time, fn func()) {
	r.seq++
	heap.Push(&r.events, replayEvent{at: t, seq: r.seq, fn: fn})
}

// every schedules fn at each interval (the demo's floor applies) until end.
func (r *Replay) every(start, end time.Time, interval time.Duration, fn func()) {
	interval = max(r.env.opts.scale(interval), minInterval)
	for t := start.Add(interval); t.Before(end); t = t.Add(interval) {
		r.do(t, fn)
	}
}

// random is a random object of scenario si (demo's editRandom), or "".
func (r *Replay) random(si int) string {
	if r.counts[si] == 0 {
		return ""
	}
	return objectName(scenarios[si].name, r.env.rand.IntN(r.counts[si]))
}

// play runs the world's events from start until end, then sets the clock to end.
func (r *Replay) play(start, end time.Time) {
	for si, sc := range scenarios { // the informers' first list
		for i := range r.counts[si] {
			r.reconcileAt(start, sc.name, objectName(sc.name, i))
		}
	}
	r.world(start, end)
	r.run(end)
}

// Advance plays the world on for elapsed from the clock's time: what a test
// does to the endpoint (a forget through Handler) in between is then part
// of it.
func (r *Replay) Advance(elapsed time.Duration) {
	start := r.Clock.Now()
	r.world(start, start.Add(elapsed))
	r.run(start.Add(elapsed))
}

// world schedules what the world does from start until end: the outages'
// resyncs (those that open from start on), users' edits and other writers.
func (r *Replay) world(start, end time.Time) {
	outage, naive, conflicts := scenarioIndex(outageName), scenarioIndex(naiveName), scenarioIndex(conflictsName)
	for from, _ := r.env.dep.sched.window(start); from.Before(end); from, _ = r.env.dep.sched.window(from.Add(r.env.dep.sched.outage)) {
		if from.Before(start) {
			continue // opened before a replay that goes on: resynced then
		}
		r.do(from, func() { // an outage opens with a resync of every outage key (demo's outages)
			for i := range r.counts[outage] {
				r.reconcileAt(from, outageName, objectName(outageName, i))
			}
		})
	}
	r.every(start, end, editEvery, func() { // demo's userEdit
		switch {
		case r.env.dep.sched.down(r.Clock.Now()) && (r.counts[naive] == 0 || r.env.rand.IntN(2) == 0):
			if name := r.random(outage); name != "" {
				r.reconcileAt(r.Clock.Now(), outageName, name)
			}
		case r.counts[naive] > 0:
			r.reconcileAt(r.Clock.Now(), naiveName, r.random(naive))
		}
	})
	r.every(start, end, touchEvery, func() { // another writer touches a conflicts key
		if name := r.random(conflicts); name != "" {
			r.generation[name]++
			r.reconcileAt(r.Clock.Now(), conflictsName, name)
		}
	})
}

// run plays the events due before end in time order, then sets the clock
// to end.
func (r *Replay) run(end time.Time) {
	for r.events.Len() > 0 && r.events[0].at.Before(end) {
		e := heap.Pop(&r.events).(replayEvent)
		r.Clock.SetTime(e.at)
		switch {
		case e.fn != nil:
			e.fn()
		case r.pending[e.ctl+"/"+e.key] != e.seq: // replaced by a later watch event
		case e.ctl == slowName:
			delete(r.pending, e.ctl+"/"+e.key)
			r.slowDue(e.key)
		default:
			delete(r.pending, e.ctl+"/"+e.key)
			r.reconcile(r.ctls[scenarioIndex(e.ctl)], e.key)
		}
	}
	r.Clock.SetTime(end)
}

func (r *Replay) request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: r.env.opts.Namespace, Name: name}}
}

// reconcile runs one reconcile of key and does with its outcome what
// controller-runtime does: an error is retried after the limiter's delay, a
// terminal error is not, RequeueAfter forgets and re-checks later, and a
// success forgets.
func (r *Replay) reconcile(c *replayed, key string) {
	req := r.request(key)
	res, err := c.rec.Reconcile(context.Background(), req)
	r.after(c, key, res, err)
}

func (r *Replay) after(c *replayed, key string, res reconcile.Result, err error) {
	req, now := r.request(key), r.Clock.Now()
	switch {
	case errors.Is(err, reconcile.TerminalError(nil)):
	case err != nil:
		r.reconcileAt(now.Add(c.limiter.When(req)), c.sc.name, key)
	case res.RequeueAfter > 0:
		c.limiter.Forget(req)
		r.reconcileAt(now.Add(res.RequeueAfter), c.sc.name, key)
	default:
		c.limiter.Forget(req)
	}
}

// slowDue is a slow key falling due: a free worker takes it, else it waits.
func (r *Replay) slowDue(key string) {
	if len(r.running) >= scenarios[scenarioIndex(slowName)].workers {
		r.waiting = append(r.waiting, key)
		return
	}
	r.startSlow(key)
}

// startSlow starts key's reconcile on a worker goroutine, which stays in it
// — running, on the endpoint — until the event 2–6s later finishes it.
func (r *Replay) startSlow(key string) {
	c := r.ctls[scenarioIndex(slowName)]
	run := &slowRun{entered: make(chan struct{}), release: make(chan struct{}), done: make(chan struct{})}
	r.running[key] = run
	go func() {
		defer close(run.done)
		run.res, _ = c.rec.Reconcile(context.Background(), r.request(key))
	}()
	<-run.entered
	work := r.env.opts.scale(time.Duration(2+r.env.rand.IntN(5)) * time.Second) // slowReconciler's work
	r.do(r.Clock.Now().Add(work), func() {
		close(run.release)
		<-run.done
		delete(r.running, key)
		r.after(c, key, run.res, nil)
		if len(r.waiting) > 0 {
			next := r.waiting[0]
			r.waiting = r.waiting[1:]
			r.startSlow(next)
		}
	})
}
