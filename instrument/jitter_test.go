package instrument

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func TestJitterLimiterSpreadsAndAttributes(t *testing.T) {
	const base, keys = time.Second, 1000
	ep := newTestEndpoint(t)
	p := New("jittered", Options{Registry: ep.Registry})
	rl := p.RateLimiter(NewJitterLimiter[reconcile.Request](NewExponentialLimiter[reconcile.Request](base, time.Hour), 0))
	var delays []time.Duration
	for i := range keys {
		d := rl.When(htReq(fmt.Sprintf("default/k%d", i)))
		if d < base*3/4 || d > base*5/4 {
			t.Fatalf("delay %v outside %v ±25%%", d, base)
		}
		delays = append(delays, d)
	}
	if lo, hi := slices.Min(delays), slices.Max(delays); lo > base*9/10 || hi < base*11/10 {
		t.Errorf("delays span [%v, %v] over %d keys, want most of [750ms, 1.25s]", lo, hi, keys)
	}
	k := ep.mustKey("jittered", "default/k0")
	if k.DelaySource != api.SourceItemExponential || k.Delay.Duration != delays[0] {
		t.Errorf("recorded %v from %q, want %v from %q: jitter keeps the attribution", k.Delay.Duration, k.DelaySource, delays[0], api.SourceItemExponential)
	}
	c := ep.controller("jittered")
	last := c.Limiter.Components[len(c.Limiter.Components)-1]
	if last.Name != api.ComponentJitter || last.Jitter != DefaultJitter {
		t.Errorf("limiter components = %+v, want a last %s component of %v", c.Limiter.Components, api.ComponentJitter, DefaultJitter)
	}
}

// TestJitterFlattensTheForecast: keys that fail together are due together
// without jitter — one bucket of the forecast holds them all — and spread
// over several seconds with Options.Jitter, for delays and RequeueAfter alike.
func TestJitterFlattensTheForecast(t *testing.T) {
	const keys = 200
	for _, requeueAfter := range []bool{false, true} {
		peaks := map[float64]int{}
		for _, j := range []float64{0, DefaultJitter} {
			e := newHTEnv(t)
			name := fmt.Sprintf("c-%v-%v", requeueAfter, j)
			p := New(name, Options{Registry: e.reg, Clock: e.clk, Jitter: j})
			var inner workqueue.TypedRateLimiter[reconcile.Request] = NewExponentialLimiter[reconcile.Request](20*time.Second, time.Hour)
			if j > 0 {
				inner = NewJitterLimiter(inner, j)
			}
			hp := &htProbe{env: e, p: p, rl: p.RateLimiter(inner)}
			e.probes[name] = hp
			r := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
				if requeueAfter {
					return reconcile.Result{RequeueAfter: 20 * time.Second}, nil
				}
				return reconcile.Result{}, fmt.Errorf("503 Service Unavailable")
			}))
			for i := range keys {
				req := htReq(fmt.Sprintf("default/k%d", i))
				if _, err := r.Reconcile(context.Background(), req); err != nil {
					hp.rl.When(req)
				}
			}
			c := htDecode[api.ControllerList](t, e.get("v1/controllers"))
			peaks[j] = slices.Max(c.Controllers[0].Forecast)
		}
		if peaks[0] != keys {
			t.Errorf("requeueAfter=%v: without jitter the forecast peaks at %d, want all %d keys in one second", requeueAfter, peaks[0], keys)
		}
		if peaks[DefaultJitter] > keys/3 {
			t.Errorf("requeueAfter=%v: with ±25%% jitter the forecast peaks at %d of %d keys, want them spread over several seconds", requeueAfter, peaks[DefaultJitter], keys)
		}
	}
}

func TestJitterOptionWrapsTheDefaultLimiter(t *testing.T) {
	for _, pq := range []bool{true, false} {
		ep := newTestEndpoint(t)
		p := New("j", Options{Registry: ep.Registry, Jitter: 0.1, UsePriorityQueue: &pq})
		p.RateLimiter(nil)
		c := ep.controller("j")
		comps := c.Limiter.Components
		if last := comps[len(comps)-1]; last.Name != api.ComponentJitter || last.Jitter != 0.1 {
			t.Errorf("pq=%v: components %+v, want the default limiter's then jitter 0.1", pq, comps)
		}
	}
}
