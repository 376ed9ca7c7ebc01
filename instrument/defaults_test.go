package instrument

import (
	"fmt"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
)

// call is one limiter call of a side-by-side sequence: a When on key, or a
// Forget of it.
type call struct {
	key    string
	forget bool
}

// failureSequence fails each key perKey times, round-robin, and forgets
// forgetKey once, after forgetAfter calls.
func failureSequence(keys []string, perKey int, forgetKey string, forgetAfter int) []call {
	var seq []call
	for i := 0; i < perKey; i++ {
		for _, k := range keys {
			if len(seq) == forgetAfter {
				seq = append(seq, call{key: forgetKey, forget: true})
			}
			seq = append(seq, call{key: k})
		}
	}
	return seq
}

// compareLimiters plays seq on got and want side by side. Each When must
// return the same delay, within tol(i) of the i-th When; NumRequeues of the
// key must agree after every call.
func compareLimiters(t *testing.T, seq []call, got, want workqueue.TypedRateLimiter[string], tol func(span time.Duration) time.Duration) {
	t.Helper()
	whens := 0
	for i, c := range seq {
		if c.forget {
			got.Forget(c.key)
			want.Forget(c.key)
		} else {
			start := time.Now()
			g := got.When(c.key)
			w := want.When(c.key)
			whens++
			if d, allowed := (g - w).Abs(), tol(time.Since(start)); d > allowed {
				t.Errorf("call %d (When #%d, %s): delay %v, client-go %v (off by %v, allowed %v)", i, whens, c.key, g, w, d, allowed)
			}
		}
		if g, w := got.NumRequeues(c.key), want.NumRequeues(c.key); g != w {
			t.Errorf("call %d (%s): NumRequeues %d, client-go %d", i, c.key, g, w)
		}
	}
}

func exact(time.Duration) time.Duration { return 0 }

func TestExponentialLimiterMatchesClientGo(t *testing.T) {
	keys := []string{"default/a", "default/b", "kube-system/c"}
	for _, c := range []struct {
		name      string
		base, max time.Duration
	}{
		{"controller-runtime default", DefaultBaseDelay, DefaultMaxDelay},
		{"reaches its cap early", time.Millisecond, time.Second},
		{"base is the cap", time.Hour, time.Hour},
		{"overflows float64 range", time.Second, 1<<63 - 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			// 40 failures a key, past the cap and (for the last case) past MaxInt64.
			seq := failureSequence(keys, 40, keys[1], 50)
			compareLimiters(t, seq, NewExponentialLimiter[string](c.base, c.max),
				workqueue.NewTypedItemExponentialFailureRateLimiter[string](c.base, c.max), exact)
		})
	}
}

func TestControllerLimiterMatchesClientGo(t *testing.T) {
	keys := []string{"default/a", "default/b", "kube-system/c"}
	var distinct []string
	for i := range 150 {
		distinct = append(distinct, fmt.Sprintf("default/w%03d", i))
	}
	for _, c := range []struct {
		name string
		seq  []call
		tol  func(span time.Duration) time.Duration
	}{
		// 3 keys × 30 failures: 90 Whens, all within the bucket's burst of 100,
		// so the exponential part decides every delay: exactly equal.
		{"under the burst", failureSequence(keys, 30, keys[0], 45), exact},
		// 150 first failures exhaust the burst, then the bucket decides. Each
		// bucket reads the real clock when it reserves a token, and refills at
		// 10 qps meanwhile, so two buckets fed the same calls a moment apart
		// grant delays that differ by the time between the two calls (well under
		// 5ms, unless the scheduler stalls the test between them: that span is
		// measured and allowed too).
		{"over the burst", append(failureSequence(distinct, 1, distinct[7], 120), call{key: distinct[0]}),
			func(span time.Duration) time.Duration { return 5*time.Millisecond + span }},
	} {
		t.Run(c.name, func(t *testing.T) {
			compareLimiters(t, c.seq, DefaultControllerLimiter[string](), workqueue.DefaultTypedControllerRateLimiter[string](), c.tol)
		})
	}
}

// countingLimiter is a limiter the decorator wraps: it answers with delays
// of its own and counts every call, per key.
type countingLimiter struct {
	mu                        sync.Mutex
	when, forget, numRequeues map[string]int
	last                      time.Duration
}

func newCountingLimiter() *countingLimiter {
	return &countingLimiter{when: map[string]int{}, forget: map[string]int{}, numRequeues: map[string]int{}}
}

func (l *countingLimiter) When(key string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.when[key]++
	// Not exponential, and different per key and call: nothing to guess.
	l.last = time.Duration(len(key)*1000+l.when[key]*37) * time.Millisecond
	return l.last
}

func (l *countingLimiter) Forget(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forget[key]++
}

func (l *countingLimiter) NumRequeues(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.numRequeues[key]++
	return 1000*len(key) + l.when[key] - l.forget[key]
}

func (l *countingLimiter) counts(key string) [3]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return [3]int{l.when[key], l.forget[key], l.numRequeues[key]}
}

func TestRateLimiterDecoratorDelegatesOnce(t *testing.T) {
	ep := newTestEndpoint(t)
	clk := clocktesting.NewFakePassiveClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	p := NewTyped[string]("custom", TypedOptions[string]{Registry: ep.Registry, Clock: clk})
	inner := newCountingLimiter()
	rl := p.RateLimiter(inner)

	var want [3]int // When, Forget, NumRequeues of the key so far
	const key = "default/w1"
	for i, c := range failureSequence([]string{key, "default/other"}, 10, key, 7) {
		clk.SetTime(clk.Now().Add(time.Second))
		switch {
		case c.forget:
			rl.Forget(c.key)
		default:
			got := rl.When(c.key)
			inner.mu.Lock()
			innerSaid := inner.last
			inner.mu.Unlock()
			if got != innerSaid {
				t.Errorf("call %d: When = %v, the wrapped limiter said %v", i, got, innerSaid)
			}
			if c.key == key {
				k := ep.mustKey("custom", key)
				if k.Delay.Duration != got || k.DelaySource != api.SourceLimiter || !k.NextRetryAt.Equal(clk.Now().Add(got)) {
					t.Errorf("call %d: recorded delay %v from %q retry at %v; want %v from %q at %v",
						i, k.Delay.Duration, k.DelaySource, k.NextRetryAt, got, api.SourceLimiter, clk.Now().Add(got))
				}
			}
		}
		if c.key != key {
			continue
		}
		n := rl.NumRequeues(key)
		if c.forget {
			want[1]++
		} else {
			want[0]++
		}
		want[2]++
		if got := inner.counts(key); got != want {
			t.Fatalf("call %d: inner saw When/Forget/NumRequeues %v times, want %v", i, got, want)
		}
		if w := 1000*len(key) + want[0] - want[1]; n != w {
			t.Errorf("call %d: NumRequeues = %d, the wrapped limiter said %d", i, n, w)
		}
	}
	c := ep.controller("custom")
	wantType := fmt.Sprintf("%T", inner)
	if c.Limiter.Description != "custom limiter "+wantType ||
		!slices.Equal(c.Limiter.Components, []api.LimiterComponent{{Name: api.SourceLimiter, Type: wantType}}) {
		t.Errorf("limiter = %+v, want a custom limiter of type %s", c.Limiter, wantType)
	}
}

func TestDefaultLimiterDescription(t *testing.T) {
	ep := newTestEndpoint(t)
	pq := New("pq", Options{Registry: ep.Registry})
	pq.RateLimiter(nil)
	classic := New("classic", Options{Registry: ep.Registry, UsePriorityQueue: ptr.To(false)})
	rl := classic.RateLimiter(nil)

	exp := api.LimiterComponent{Name: api.SourceItemExponential,
		BaseDelay: metav1.Duration{Duration: DefaultBaseDelay}, MaxDelay: metav1.Duration{Duration: DefaultMaxDelay}}
	if got, want := ep.controller("pq").Limiter, (api.Limiter{Description: "item-exponential 5ms..16m40s",
		Components: []api.LimiterComponent{exp}}); got.Description != want.Description || !slices.Equal(got.Components, want.Components) {
		t.Errorf("priority-queue limiter = %+v, want %+v", got, want)
	}

	tokens := func() (api.LimiterComponent, float64) {
		l := ep.controller("classic").Limiter
		if l.Description != "max(item-exponential 5ms..16m40s, bucket 10qps/100)" || len(l.Components) != 2 || l.Components[0] != exp {
			t.Fatalf("classic limiter = %+v, want max(item-exponential, bucket)", l)
		}
		b := l.Components[1]
		if b.Name != api.SourceBucket || b.QPS != DefaultQPS || b.Burst != DefaultBurst || b.Tokens == nil {
			t.Fatalf("bucket component = %+v, want qps %d, burst %d, tokens", b, DefaultQPS, DefaultBurst)
		}
		return b, *b.Tokens
	}
	_, before := tokens()
	if before < DefaultBurst-0.001 || before > DefaultBurst {
		t.Errorf("tokens before any When = %v, want the full burst %d", before, DefaultBurst)
	}
	// Reading the tokens must not take one.
	if _, again := tokens(); again < before-0.001 {
		t.Errorf("tokens went from %v to %v by reading them", before, again)
	}
	const whens = 10
	start := time.Now()
	for i := range whens {
		rl.When(reqOf(fmt.Sprintf("default/w%d", i)))
	}
	_, after := tokens()
	refill := time.Since(start).Seconds() * DefaultQPS
	if lo, hi := before-whens-0.001, before-whens+refill+0.001; after < lo || after > hi {
		t.Errorf("tokens after %d Whens = %v, want in [%v, %v]: one token per When", whens, after, lo, hi)
	}
}

func TestDelaySourceBucket(t *testing.T) {
	ep := newTestEndpoint(t)
	clk := clocktesting.NewFakePassiveClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	p := New("classic", Options{Registry: ep.Registry, UsePriorityQueue: ptr.To(false), Clock: clk})
	rl := p.RateLimiter(nil)
	reference := workqueue.DefaultTypedControllerRateLimiter[string]()

	// The burst is 100: past it, the bucket's delay (100ms a token) beats the
	// first failure's 5ms. 150 keys leave the bucket 50 tokens short even if
	// the loop were slow enough to refill a few.
	const n = 150
	var last, lastRef time.Duration
	for i := range n {
		key := fmt.Sprintf("default/w%03d", i)
		last = rl.When(reqOf(key))
		lastRef = reference.When(key)
	}
	first := ep.mustKey("classic", "default/w000")
	if first.DelaySource != api.SourceItemExponential || first.Delay.Duration != DefaultBaseDelay {
		t.Errorf("first key: delay %v from %q, want %v from %q", first.Delay.Duration, first.DelaySource, DefaultBaseDelay, api.SourceItemExponential)
	}
	k := ep.mustKey("classic", fmt.Sprintf("default/w%03d", n-1))
	if k.DelaySource != api.SourceBucket || k.Delay.Duration != last || last <= DefaultBaseDelay {
		t.Errorf("last key: delay %v from %q (When said %v), want the bucket's, above %v", k.Delay.Duration, k.DelaySource, last, DefaultBaseDelay)
	}
	if d := (last - lastRef).Abs(); d > time.Second {
		t.Errorf("last delay %v, client-go's limiter fed the same calls %v", last, lastRef)
	}
	// The endpoint can select the keys whose delay the bucket chose.
	var list api.KeyList
	ep.get("v1/keys?"+url.Values{"controller": {"classic"}, "limit": {"1000"}}.Encode(), &list)
	bucket := 0
	for _, it := range list.Items {
		if it.DelaySource == api.SourceBucket {
			bucket++
		}
	}
	if bucket < n-DefaultBurst-10 || bucket > n-DefaultBurst {
		t.Errorf("%d keys delayed by the bucket, want about %d (the calls past the burst)", bucket, n-DefaultBurst)
	}
}

// A probe on a fake clock runs a wrapped ControllerLimiter's bucket on it:
// the delays and tokens are the fake clock's arithmetic, exactly.
func TestControllerLimiterBucketFollowsProbeClock(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	p := NewTyped("widgets", TypedOptions[string]{Registry: NewRegistry(), Clock: clk, UsePriorityQueue: ptr.To(false)})
	inner := NewControllerLimiter[string](time.Millisecond, time.Second, 10, 2)
	rl := p.RateLimiter(inner)
	var got []time.Duration
	for _, k := range []string{"a", "b", "c", "d"} {
		got = append(got, rl.When(k))
	}
	if e, a := []time.Duration{time.Millisecond, time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}, got; !slices.Equal(e, a) {
		t.Errorf("delays: want %v, got %v", e, a)
	}
	if e, a := -2.0, inner.Tokens(); e != a {
		t.Errorf("tokens after 4 Whens on a burst of 2: want %v, got %v", e, a)
	}
	clk.Step(250 * time.Millisecond)
	if e, a := 0.5, inner.Tokens(); e != a {
		t.Errorf("tokens 250ms later at 10qps: want %v, got %v", e, a)
	}
}
