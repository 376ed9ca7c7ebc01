package instrument

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// htRunTime is how long every scripted reconcile takes on the fake clock.
const htRunTime = 2 * time.Millisecond

// Errors of the fixture.
const (
	htErrRefused = "dial tcp 10.0.0.7:443: connect: connection refused"
	htErrTimeout = "Timeout waiting for the volume"
	htErrInvalid = "invalid spec"
)

// htEnv is a registry of probes on one fake clock, served by a handler.
type htEnv struct {
	t      *testing.T
	clk    *clocktesting.FakeClock
	reg    *Registry
	h      http.Handler
	probes map[string]*htProbe
}

// htProbe is one controller, driven by calling its decorators directly.
type htProbe struct {
	env *htEnv
	p   *Probe
	rl  workqueue.TypedRateLimiter[reconcile.Request]
}

func newHTEnv(t *testing.T) *htEnv {
	t.Helper()
	clk := clocktesting.NewFakeClock(time.Date(2025, 3, 4, 10, 2, 13, 0, time.UTC))
	reg := NewRegistry()
	return &htEnv{t: t, clk: clk, reg: reg, h: NewHandler(HandlerOptions{Registry: reg}), probes: map[string]*htProbe{}}
}

// probe adds a controller whose limiter is inner (nil: the recording default).
func (e *htEnv) probe(name string, usePQ bool, inner workqueue.TypedRateLimiter[reconcile.Request]) *htProbe {
	p := New(name, Options{Registry: e.reg, Clock: e.clk, UsePriorityQueue: ptr.To(usePQ)})
	hp := &htProbe{env: e, p: p, rl: p.RateLimiter(inner)}
	e.probes[name] = hp
	return hp
}

func htReq(key string) reconcile.Request {
	ns, name, ok := strings.Cut(key, "/")
	if !ok {
		ns, name = "", key
	}
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}}
}

// run reconciles key once with the given outcome and then does what
// controller-runtime does with it: When on an error or Requeue, Forget on a
// success or RequeueAfter, nothing on a terminal error.
func (hp *htProbe) run(key string, res reconcile.Result, err error) {
	req := htReq(key)
	r := hp.p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		hp.env.clk.Step(htRunTime)
		return res, err
	}))
	_, gotErr := r.Reconcile(context.Background(), req)
	if gotErr != err {
		hp.env.t.Fatalf("Reconcile(%s) error = %v, want %v (the decorator changed it)", key, gotErr, err)
	}
	switch {
	case err != nil && isTerminal(err):
	case err != nil || res.Requeue: //nolint:staticcheck // controller-runtime still honours it
		hp.rl.When(req)
	default:
		hp.rl.Forget(req)
	}
	hp.env.clk.Step(10 * time.Millisecond)
}

func isTerminal(err error) bool {
	return strings.HasPrefix(err.Error(), "terminal error")
}

// htFixture: alpha (priority queue, exponential from 1s) and beta (classic
// queue, max(exponential from 1s, bucket)); delays of a second or more keep
// every backoff pending while the fixture runs.
func htFixture(t *testing.T) *htEnv {
	e := newHTEnv(t)
	a := e.probe("alpha", true, NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))
	for range 3 {
		a.run("default/a1", reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	}
	a.run("default/a2", reconcile.Result{}, nil)
	a.run("kube-system/A3", reconcile.Result{RequeueAfter: time.Minute}, nil)
	a.run("default/a4", reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("%s", htErrInvalid)))
	b := e.probe("beta", false, NewControllerLimiter[reconcile.Request](time.Second, time.Hour, DefaultQPS, DefaultBurst))
	b.run("other/b1", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	b.run("other/b2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	b.run("other/b2", reconcile.Result{}, fmt.Errorf("%s", htErrTimeout))
	return e
}

// htField walks a dotted path of object fields.
func htField(m map[string]any, path string) (any, bool) {
	var v any = m
	for name := range strings.SplitSeq(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[name]; !ok {
			return nil, false
		}
	}
	return v, true
}

// htItems returns the items of a v1/keys answer.
func htItems(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	raw, ok := m["items"].([]any)
	if !ok {
		t.Fatalf("items = %T, want a list: %v", m["items"], m)
	}
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i] = it.(map[string]any)
	}
	return out
}

// htKeys names the items as "controller:key".
func htKeys(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%v:%v", it["controller"], it["key"])
	}
	return out
}

func htTime(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("time %v: %v", v, err)
	}
	return at
}

func TestHandlerIndex(t *testing.T) {
	e := htFixture(t)
	for _, path := range []string{"", "v1", "v1/"} {
		m := e.get(path)
		for _, f := range []string{"versions", "controllers", "endpoints", "readOnly"} {
			if _, ok := m[f]; !ok {
				t.Errorf("GET %q: no field %q in %v", path, f, m)
			}
		}
		if got, want := fmt.Sprint(m["controllers"]), fmt.Sprint(e.reg.Names()); got != want {
			t.Errorf("GET %q: controllers = %s, want %s", path, got, want)
		}
	}
}

func TestHandlerControllers(t *testing.T) {
	e := htFixture(t)
	q := e.probes["alpha"].p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(e.probes["alpha"].rl,
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Clock: e.clk}))
	t.Cleanup(q.ShutDown)
	m := e.get("v1/controllers")
	if got, want := htTime(t, m["serverTime"]), e.clk.Now(); !got.Equal(want) {
		t.Errorf("serverTime = %v, want %v", got, want)
	}
	list, _ := m["controllers"].([]any)
	if len(list) != 2 {
		t.Fatalf("controllers = %v, want alpha and beta", m["controllers"])
	}
	want := map[string]struct {
		counts     map[api.State]int
		canRequeue bool
		queue      bool
		components []string
	}{
		"alpha": {map[api.State]int{api.StateBackoff: 1, api.StateIdle: 1, api.StateScheduled: 1, api.StateFailed: 1}, true, true, []string{api.SourceItemExponential}},
		"beta":  {map[api.State]int{api.StateBackoff: 2}, false, false, []string{api.SourceItemExponential, api.SourceBucket}},
	}
	for _, raw := range list {
		c := raw.(map[string]any)
		name, _ := c["name"].(string)
		w, ok := want[name]
		if !ok {
			t.Fatalf("unexpected controller %q", name)
		}
		for _, f := range []string{"active", "limiter.description", "limiter.components", "keys", "counts",
			"capabilities.canForget", "capabilities.canRequeue", "capabilities.readOnly"} {
			if _, ok := htField(c, f); !ok {
				t.Errorf("%s: no field %s in %v", name, f, c)
			}
		}
		total := 0
		for _, st := range api.States {
			got, _ := htField(c, "counts."+string(st))
			total += w.counts[st]
			if got != float64(w.counts[st]) {
				t.Errorf("%s: counts.%s = %v, want %d", name, st, got, w.counts[st])
			}
		}
		if c["keys"] != float64(total) {
			t.Errorf("%s: keys = %v, want %d", name, c["keys"], total)
		}
		if got, _ := htField(c, "capabilities.canRequeue"); got != w.canRequeue {
			t.Errorf("%s: canRequeue = %v, want %v", name, got, w.canRequeue)
		}
		if _, got := c["queueDepth"]; got != w.queue {
			t.Errorf("%s: has queueDepth = %v, want %v", name, got, w.queue)
		}
		var names []string
		comps, _ := htField(c, "limiter.components")
		for _, comp := range comps.([]any) {
			names = append(names, comp.(map[string]any)["name"].(string))
		}
		if !slices.Equal(names, w.components) {
			t.Errorf("%s: limiter components = %v, want %v", name, names, w.components)
		}
	}
}

func TestHandlerKeyFields(t *testing.T) {
	e := htFixture(t)
	// What the limiter decided on the third failure, from a reference limiter.
	ref := workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Hour)
	var wantDelay time.Duration
	for range 3 {
		wantDelay = ref.When("x")
	}
	for _, target := range []string{"v1/keys?controller=alpha&q=default/a1", "v1/key?controller=alpha&key=default/a1"} {
		m := e.get(target)
		k := m
		if strings.HasPrefix(target, "v1/keys") {
			for _, f := range []string{"serverTime", "total", "matched", "items"} {
				if _, ok := m[f]; !ok {
					t.Errorf("%s: no field %q", target, f)
				}
			}
			items := htItems(t, m)
			if len(items) != 1 {
				t.Fatalf("%s: items = %v, want default/a1 only", target, htKeys(items))
			}
			k = items[0]
		}
		checks := map[string]any{
			"controller": "alpha", "key": "default/a1", "state": string(api.StateBackoff),
			"failures": 3.0, "totalFailures": 3.0, "reconciles": 3.0, "sameErrorCount": 3.0,
			"delay": wantDelay.String(), "delaySource": api.SourceItemExponential,
			"lastError.message": htErrRefused, "lastDuration": htRunTime.String(),
		}
		for f, want := range checks {
			if got, _ := htField(k, f); got != want {
				t.Errorf("%s: %s = %v, want %v", target, f, got, want)
			}
		}
		for _, f := range []string{"nextRetryAt", "lastError.at", "firstFailureAt", "lastReconcileAt"} {
			v, ok := htField(k, f)
			if !ok {
				t.Errorf("%s: no field %s", target, f)
				continue
			}
			htTime(t, v)
		}
		// The last failure's When came right after its reconcile: the retry is
		// its time plus the delay.
		lastErrAt, _ := htField(k, "lastError.at")
		if got, want := htTime(t, k["nextRetryAt"]), htTime(t, lastErrAt).Add(wantDelay); !got.Equal(want) {
			t.Errorf("%s: nextRetryAt = %v, want %v", target, got, want)
		}
		for _, f := range []string{"lastSuccessAt", "queuedAt", "startedAt"} {
			if v, ok := k[f]; ok {
				t.Errorf("%s: %s = %v, want it omitted", target, f, v)
			}
		}
		_, hasHistory := k["history"]
		if want := strings.HasPrefix(target, "v1/key?"); hasHistory != want {
			t.Errorf("%s: has history = %v, want %v", target, hasHistory, want)
		}
	}
	m := e.get("v1/key?controller=alpha&key=default/a1")
	hist, _ := m["history"].([]any)
	if len(hist) != 3 {
		t.Fatalf("history has %d attempts, want 3: %v", len(hist), hist)
	}
	ref.Forget("x")
	for i, raw := range hist {
		a := raw.(map[string]any)
		want := map[string]any{"outcome": api.OutcomeError, "error": htErrRefused,
			"delay": ref.When("x").String(), "duration": htRunTime.String()}
		for f, w := range want {
			if a[f] != w {
				t.Errorf("history[%d].%s = %v, want %v", i, f, a[f], w)
			}
		}
		htTime(t, a["at"])
	}
}

func TestHandlerKeysFilter(t *testing.T) {
	e := htFixture(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{"alpha:default/a1", "alpha:default/a2", "alpha:default/a4", "alpha:kube-system/A3", "beta:other/b1", "beta:other/b2"}},
		{"q=refused", []string{"alpha:default/a1"}},
		{"q=REFUSED", nil},
		{"q=a3", []string{"alpha:kube-system/A3"}},
		{"q=A", []string{"alpha:kube-system/A3"}},
		{"q=timeout", []string{"beta:other/b1", "beta:other/b2"}},
		{"q=Timeout", []string{"beta:other/b1", "beta:other/b2"}},
		{"q=TIMEOUT", nil},
		{"q=~^default/a[12]$", []string{"alpha:default/a1", "alpha:default/a2"}},
		{"q=~refused$", []string{"alpha:default/a1"}},
		{"state=backoff", []string{"alpha:default/a1", "beta:other/b1", "beta:other/b2"}},
		{"state=backoff,failed", []string{"alpha:default/a1", "alpha:default/a4", "beta:other/b1", "beta:other/b2"}},
		{"state=backoff&state=failed", []string{"alpha:default/a1", "alpha:default/a4", "beta:other/b1", "beta:other/b2"}},
		{"state=scheduled", []string{"alpha:kube-system/A3"}},
		{"state=idle&q=a2", []string{"alpha:default/a2"}},
		{"controller=beta&q=timeout", []string{"beta:other/b1", "beta:other/b2"}},
		{"controller=alpha&q=timeout", nil},
	}
	for _, tt := range tests {
		m := e.get("v1/keys?sort=key&" + strings.ReplaceAll(tt.query, "+", "%2B"))
		got := htKeys(htItems(t, m))
		if !slices.Equal(got, tt.want) {
			t.Errorf("v1/keys?%s = %v, want %v", tt.query, got, tt.want)
		}
		if m["matched"] != float64(len(tt.want)) {
			t.Errorf("v1/keys?%s: matched = %v, want %d", tt.query, m["matched"], len(tt.want))
		}
		wantTotal := 6
		if strings.Contains(tt.query, "controller=beta") {
			wantTotal = 2
		} else if strings.Contains(tt.query, "controller=alpha") {
			wantTotal = 4
		}
		if m["total"] != float64(wantTotal) {
			t.Errorf("v1/keys?%s: total = %v, want %d", tt.query, m["total"], wantTotal)
		}
	}
}
