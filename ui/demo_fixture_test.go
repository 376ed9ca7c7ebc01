package ui

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// demoWorld is `kubectl backoff demo --seed N` replayed deterministically:
// the demo's six controllers (demo/scenario.go), their outcomes and error
// texts (demo/reconcilers.go, demo/dependency.go) and limiters, each a real
// probe on one fake clock served by the real handler. Instead of running
// the demo, whose timing depends on the scheduler, an event loop plays its
// world — the first list, the outage's resync, users' edits, other writers,
// retries, re-checks and the slow controller's two workers — in time order,
// with the seed's pseudo-random choices, through the probes' decorators
// (Reconciler, RateLimiter When/Forget) exactly as controller-runtime calls
// them. One simplification: a watch event takes the place of a key's
// pending retry instead of adding a second one.
type demoWorld struct {
	clk   *clocktesting.FakeClock
	start time.Time
	rand  *rand.Rand
	ctls  map[string]*demoController
	// order is the controllers in the demo's start order (the map's is random).
	order  []*demoController
	events eventHeap
	seq    int
	srv    *httptest.Server

	// conflicts: the generation each key is at, and the one a conflict was
	// injected for (demo's conflictsReconciler.injectConflict).
	generation, conflicted map[string]int
	// ready is when each polled resource becomes ready.
	ready map[string]time.Time
	// The slow controller's workers: keys running (and what finishes them),
	// and keys due but waiting for a worker, in order.
	running map[string]*slowRun
	waiting []string
}

// The demo's defaults at speed 1 (demo/scenario.go, demo/options.go).
const (
	demoKeys        = 200
	demoWarmup      = 10 * time.Second
	demoOutage      = 2 * time.Minute
	demoOutageEvery = 5 * time.Minute
	demoPollEvery   = 30 * time.Second
	demoMaxPolls    = 20
	demoSlowEvery   = 10 * time.Second
	demoEditEvery   = 3 * time.Second
	demoTouchEvery  = 2 * time.Second
	demoSlowWorkers = 2
)

// demoController is one of the demo's controllers: its probe, its
// instrumented limiter and reconciler, and its keys.
type demoController struct {
	name    string
	classic bool
	keys    int
	probe   *instrument.Probe
	limiter workqueue.TypedRateLimiter[reconcile.Request]
	rec     reconcile.Reconciler
	// outcome decides the next reconcile of name at the world's time.
	outcome func(name string) (reconcile.Result, error)
}

// slowRun is a reconcile of the slow controller in progress: its worker
// goroutine waits on release, then reports on done.
type slowRun struct {
	entered, release, done chan struct{}
}

// event is one reconcile due at a time (or, with fn, something the world does).
type event struct {
	at  time.Time
	seq int
	ctl string
	key string
	fn  func()
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// demoStart is the fake clock's start: 08:00:00 UTC, so times read plainly.
var demoStart = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

// newDemoWorld builds the demo's controllers with seed and plays its world
// for elapsed; the endpoint then serves what the demo's would at that moment.
func newDemoWorld(tb testing.TB, seed int64, elapsed time.Duration) *demoWorld {
	tb.Helper()
	w := &demoWorld{
		clk: clocktesting.NewFakeClock(demoStart), start: demoStart,
		rand:       rand.New(rand.NewPCG(uint64(seed), 0x6b75626563746c)),
		ctls:       map[string]*demoController{},
		generation: map[string]int{}, conflicted: map[string]int{},
		ready: map[string]time.Time{}, running: map[string]*slowRun{},
	}
	reg := instrument.NewRegistry()
	storageClass := errors.New("spec.storageClass must be set")
	// The demo's split of its keys (demo.split): shares 50/10/10/15/10/5 %, slow at most 20.
	for _, c := range []*demoController{
		{name: "outage", classic: true, keys: demoKeys * 50 / 100, outcome: func(name string) (reconcile.Result, error) {
			if w.down() {
				return reconcile.Result{}, fmt.Errorf("sync with inventory API: PUT https://inventory.demo.svc/v1/items/%s: 503 Service Unavailable", name)
			}
			return reconcile.Result{}, nil
		}},
		{name: "naive", keys: demoKeys * 10 / 100, outcome: func(string) (reconcile.Result, error) { return reconcile.Result{}, storageClass }},
		{name: "wellbehaved", keys: demoKeys * 10 / 100, outcome: func(string) (reconcile.Result, error) {
			return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("invalid spec: %w", storageClass))
		}},
		{name: "polling", keys: demoKeys * 15 / 100, outcome: func(name string) (reconcile.Result, error) {
			if w.clk.Now().Before(w.ready[name]) {
				return reconcile.Result{RequeueAfter: demoPollEvery}, nil
			}
			return reconcile.Result{}, nil
		}},
		{name: "conflicts", keys: demoKeys * 10 / 100, outcome: w.conflictsOutcome},
		{name: "slow", keys: min(demoKeys*5/100, 20), outcome: func(string) (reconcile.Result, error) {
			return reconcile.Result{RequeueAfter: demoSlowEvery}, nil
		}},
	} {
		c.probe = instrument.New(c.name, instrument.Options{Registry: reg, Object: &corev1.ConfigMap{}, UsePriorityQueue: ptr.To(!c.classic), Clock: w.clk})
		if c.classic {
			c.limiter = c.probe.RateLimiter(instrument.NewControllerLimiter[reconcile.Request](instrument.DefaultBaseDelay, instrument.DefaultMaxDelay, instrument.DefaultQPS, instrument.DefaultBurst))
		} else {
			c.limiter = c.probe.RateLimiter(instrument.NewExponentialLimiter[reconcile.Request](instrument.DefaultBaseDelay, instrument.DefaultMaxDelay))
		}
		c.rec = c.probe.Reconciler(reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			if run := w.running[req.Name]; run != nil && c.name == "slow" {
				// The decorator has marked the key running: say so, then stay
				// busy until the world says the work is done.
				close(run.entered)
				<-run.release
			}
			return c.outcome(req.Name)
		}))
		w.ctls[c.name] = c
		w.order = append(w.order, c)
	}
	for i := range w.ctls["polling"].keys {
		w.ready[demoObject("polling", i)] = demoStart.Add(time.Duration(1+w.rand.IntN(demoMaxPolls)) * demoPollEvery)
	}
	discard := logr.Discard()
	w.srv = httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &discard}))
	tb.Cleanup(w.close)
	w.play(elapsed)
	return w
}

func demoObject(ctl string, i int) string { return fmt.Sprintf("%s-%05d", ctl, i) }

// down is the dependency's schedule (demo/dependency.go): healthy for the
// warm-up, then down for demoOutage at the start of every demoOutageEvery.
func (w *demoWorld) down() bool {
	since := w.clk.Now().Sub(w.start) - demoWarmup
	return since >= 0 && since%demoOutageEvery < demoOutage
}

// conflictsOutcome is demo's conflictsReconciler: about one new generation
// in three meets another writer first, and the retry succeeds.
func (w *demoWorld) conflictsOutcome(name string) (reconcile.Result, error) {
	gen := w.generation[name]
	if gen == 0 || w.conflicted[name] == gen || w.rand.IntN(3) != 0 {
		w.generation[name] = max(gen, 1)
		return reconcile.Result{}, nil
	}
	w.conflicted[name] = gen
	return reconcile.Result{}, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, name,
		errors.New("the object has been modified; please apply your changes to the latest version and try again"))
}

// at schedules a reconcile of key, replacing the one pending.
func (w *demoWorld) at(t time.Time, ctl, key string) {
	w.seq++
	heap.Push(&w.events, event{at: t, seq: w.seq, ctl: ctl, key: key})
}

// do schedules something the world does at t.
func (w *demoWorld) do(t time.Time, fn func()) {
	w.seq++
	heap.Push(&w.events, event{at: t, seq: w.seq, fn: fn})
}

// play runs the world's events due within elapsed of the start.
func (w *demoWorld) play(elapsed time.Duration) {
	end := w.start.Add(elapsed)
	pending := map[string]int{} // ctl/key → the seq of its one live reconcile event
	schedule := func(t time.Time, ctl, key string) {
		w.at(t, ctl, key)
		pending[ctl+"/"+key] = w.seq
	}
	for _, c := range w.order { // the informers' first list
		for i := range c.keys {
			schedule(w.start, c.name, demoObject(c.name, i))
		}
	}
	for t := w.start.Add(demoWarmup); t.Before(end); t = t.Add(demoOutageEvery) {
		w.do(t, func() { // the outage opens with a resync of every outage key
			for i := range w.ctls["outage"].keys {
				schedule(t, "outage", demoObject("outage", i))
			}
		})
	}
	for t := w.start.Add(demoEditEvery); t.Before(end); t = t.Add(demoEditEvery) {
		w.do(t, func() { // a user edits a failing key (demo's userEdit)
			if w.down() && w.rand.IntN(2) == 0 {
				schedule(t, "outage", demoObject("outage", w.rand.IntN(w.ctls["outage"].keys)))
				return
			}
			schedule(t, "naive", demoObject("naive", w.rand.IntN(w.ctls["naive"].keys)))
		})
	}
	for t := w.start.Add(demoTouchEvery); t.Before(end); t = t.Add(demoTouchEvery) {
		w.do(t, func() { // another writer touches a conflicts key
			name := demoObject("conflicts", w.rand.IntN(w.ctls["conflicts"].keys))
			w.generation[name]++
			schedule(t, "conflicts", name)
		})
	}
	for w.events.Len() > 0 && w.events[0].at.Before(end) {
		e := heap.Pop(&w.events).(event)
		w.clk.SetTime(e.at)
		if e.fn != nil {
			e.fn()
			continue
		}
		if pending[e.ctl+"/"+e.key] != e.seq {
			continue // replaced by a later watch event
		}
		delete(pending, e.ctl+"/"+e.key)
		if e.ctl == "slow" {
			w.slowDue(e.key, schedule)
			continue
		}
		w.reconcile(w.ctls[e.ctl], e.key, schedule)
	}
	w.clk.SetTime(end)
}

// reconcile runs one reconcile of key and does what controller-runtime does
// with its outcome: an error is retried after the limiter's delay, a
// terminal error is not, RequeueAfter forgets and re-checks later, and a
// success forgets.
func (w *demoWorld) reconcile(c *demoController, key string, schedule func(time.Time, string, string)) {
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "demo", Name: key}}
	res, err := c.rec.Reconcile(context.Background(), req)
	now := w.clk.Now()
	switch {
	case errors.Is(err, reconcile.TerminalError(nil)):
	case err != nil:
		schedule(now.Add(c.limiter.When(req)), c.name, key)
	case res.RequeueAfter > 0:
		c.limiter.Forget(req)
		schedule(now.Add(res.RequeueAfter), c.name, key)
	default:
		c.limiter.Forget(req)
	}
}

// slowDue is a slow key falling due: a free worker takes it, else it waits.
func (w *demoWorld) slowDue(key string, schedule func(time.Time, string, string)) {
	if len(w.running) >= demoSlowWorkers {
		w.waiting = append(w.waiting, key)
		return
	}
	w.startSlow(key, schedule)
}

// startSlow starts key's reconcile on a worker goroutine, which stays in it
// (running, on the endpoint) until the event 2–6s later finishes it.
func (w *demoWorld) startSlow(key string, schedule func(time.Time, string, string)) {
	c := w.ctls["slow"]
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "demo", Name: key}}
	run := &slowRun{entered: make(chan struct{}), release: make(chan struct{}), done: make(chan struct{})}
	w.running[key] = run
	var res reconcile.Result
	go func() {
		defer close(run.done)
		res, _ = c.rec.Reconcile(context.Background(), req)
	}()
	<-run.entered
	work := time.Duration(2+w.rand.IntN(5)) * time.Second
	w.do(w.clk.Now().Add(work), func() {
		close(run.release)
		<-run.done
		delete(w.running, key)
		c.limiter.Forget(req)
		schedule(w.clk.Now().Add(res.RequeueAfter), "slow", key)
		if len(w.waiting) > 0 {
			next := w.waiting[0]
			w.waiting = w.waiting[1:]
			w.startSlow(next, schedule)
		}
	})
}

// close releases the workers still running, then stops the endpoint.
func (w *demoWorld) close() {
	for _, run := range w.running {
		close(run.release)
		<-run.done
	}
	w.running = map[string]*slowRun{}
	w.srv.Close()
}
