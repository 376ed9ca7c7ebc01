package instrument

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// stProbe is a probe with a small bound and short retention on a fake clock.
func stProbe(t *testing.T, maxKeys int, retention time.Duration) (*htEnv, *htProbe) {
	e := newHTEnv(t)
	p := New("store", Options{Registry: e.reg, Clock: e.clk, MaxKeys: maxKeys, Retention: retention})
	hp := &htProbe{env: e, p: p, rl: p.RateLimiter(NewExponentialLimiter[reconcile.Request](time.Minute, time.Hour))}
	e.probes["store"] = hp
	return e, hp
}

// stKeys lists the keys the store holds, sorted.
func stKeys(p *Probe) []string {
	var keys []string
	p.store.each(func(e *entry[reconcile.Request]) { keys = append(keys, e.key) })
	slices.Sort(keys)
	return keys
}

func TestStoreMaxKeysEvictsIdleFirst(t *testing.T) {
	const maxKeys = 10
	e, hp := stProbe(t, maxKeys, time.Hour)
	for i := range 5 {
		hp.run(fmt.Sprintf("idle/i%d", i), reconcile.Result{}, nil)
		e.clk.Step(time.Second)
	}
	for i := range 5 {
		hp.run(fmt.Sprintf("busy/b%d", i), reconcile.Result{}, errors.New("boom"))
		e.clk.Step(time.Second)
	}
	hp.run("idle/i2", reconcile.Result{}, nil) // recent activity: i2 is now the newest idle key
	e.clk.Step(time.Second)
	if got := hp.p.store.len(); got != maxKeys {
		t.Fatalf("store holds %d keys, want %d", got, maxKeys)
	}
	// Each new busy key evicts one, in the background: idle ones oldest
	// first, then busy ones.
	wantVictims := []string{"idle/i0", "idle/i1", "idle/i3", "idle/i4", "idle/i2", "busy/b0", "busy/b1"}
	for i, want := range wantVictims {
		before := stKeys(hp.p)
		hp.rl.When(htReq(fmt.Sprintf("new/n%d", i)))
		e.clk.Step(time.Second)
		eventually(t, 5*time.Second, func() (bool, string) {
			n := hp.p.store.len()
			return n == maxKeys && !hp.p.store.evicting.Load(), fmt.Sprintf("after new/n%d: count %d, want %d", i, n, maxKeys)
		})
		after := stKeys(hp.p)
		if len(after) != maxKeys {
			t.Fatalf("after new/n%d: %d keys, want %d", i, len(after), maxKeys)
		}
		var gone []string
		for _, k := range before {
			if _, ok := slices.BinarySearch(after, k); !ok {
				gone = append(gone, k)
			}
		}
		if !slices.Equal(gone, []string{want}) {
			t.Errorf("new/n%d evicted %v, want [%s]", i, gone, want)
		}
	}
}

func TestStoreRetention(t *testing.T) {
	const retention = 10 * time.Minute
	e, hp := stProbe(t, 0, retention)
	hp.run("default/old", reconcile.Result{}, nil)
	hp.run("default/stuck", reconcile.Result{}, errors.New("boom"))
	hp.run("default/gave-up", reconcile.Result{}, reconcile.TerminalError(errors.New("bad")))
	e.clk.Step(retention / 2)
	hp.run("default/recent", reconcile.Result{}, nil)
	all := []string{"default/gave-up", "default/old", "default/recent", "default/stuck"}
	// Reads sweep at most once per sweepEvery, so a key goes within that of
	// its window's end. Failed and backoff keys are not idle: they stay.
	every := hp.p.store.sweepEvery()
	tests := []struct {
		step time.Duration
		read string // the endpoint whose read sweeps
		want []string
	}{
		{0, "v1/keys", all},
		{retention/2 - time.Second, "v1/keys", all}, // 1s short of old's window
		{every, "v1/controllers", []string{"default/gave-up", "default/recent", "default/stuck"}},
		{retention / 2, "v1/keys", []string{"default/gave-up", "default/stuck"}},
	}
	for i, tt := range tests {
		e.clk.Step(tt.step)
		e.get(tt.read)
		if got := stKeys(hp.p); !slices.Equal(got, tt.want) {
			t.Errorf("step %d (+%v, read %s): keys = %v, want %v", i, tt.step, tt.read, got, tt.want)
		}
		m := e.get("v1/keys")
		if m["total"] != float64(len(tt.want)) {
			t.Errorf("step %d: total = %v, want %d", i, m["total"], len(tt.want))
		}
	}
}

func TestTruncateErrors(t *testing.T) {
	tests := []struct {
		name string
		msg  string
	}{
		{"short", "connection refused"},
		{"exactly the bound", strings.Repeat("x", maxErrorBytes)},
		{"one over", strings.Repeat("x", maxErrorBytes+1)},
		{"two-byte runes", strings.Repeat("é", maxErrorBytes)},
		{"three-byte runes", "a" + strings.Repeat("€", maxErrorBytes)},
		{"four-byte runes", "ab" + strings.Repeat("😀", maxErrorBytes)},
	}
	const mark = "…"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, hp := stProbe(t, 0, time.Hour)
			// Twice, each time a fresh copy: the same long error is counted as the same.
			for range 2 {
				hp.run("default/w", reconcile.Result{}, errors.New(strings.Clone(tt.msg)))
			}
			k := e.get("v1/key?key=default/w")
			got, _ := htField(k, "lastError.message")
			s := got.(string)
			if len(tt.msg) <= maxErrorBytes {
				if s != tt.msg {
					t.Errorf("message of %d bytes was changed to %d bytes", len(tt.msg), len(s))
				}
			} else {
				kept := strings.TrimSuffix(s, mark)
				switch {
				case len(s) > maxErrorBytes:
					t.Errorf("len = %d, want at most %d", len(s), maxErrorBytes)
				case !utf8.ValidString(s):
					t.Errorf("truncated message is not valid UTF-8")
				case kept == s || !strings.HasPrefix(tt.msg, kept):
					t.Errorf("truncated message is not a prefix marked with %q", mark)
				case len(kept) <= maxErrorBytes-len(mark)-utf8.UTFMax:
					t.Errorf("kept %d bytes, cut more than one rune short of %d", len(kept), maxErrorBytes-len(mark))
				}
			}
			if !truncatedIs(tt.msg, s, maxErrorBytes) || truncatedIs(tt.msg, s+"x", maxErrorBytes) ||
				truncatedIs(tt.msg, "y"+s[1:], maxErrorBytes) {
				t.Errorf("truncatedIs disagrees with truncate")
			}
			if k["sameErrorCount"] != 2.0 {
				t.Errorf("sameErrorCount = %v, want 2", k["sameErrorCount"])
			}
			for i, a := range k["history"].([]any) {
				if a.(map[string]any)["error"] != s {
					t.Errorf("history[%d].error differs from lastError.message", i)
				}
			}
		})
	}
}

func TestStoreInternsErrors(t *testing.T) {
	const n = 5000
	e, hp := stProbe(t, 0, time.Hour)
	var built []string
	for i := range n {
		// Built afresh each time, as err.Error() of a wrapped error would be.
		err := fmt.Errorf("reconcile: %w", fmt.Errorf("dial tcp %s: connect: connection refused", "10.0.0.7:443"))
		built = append(built, err.Error())
		hp.run(fmt.Sprintf("default/w%d", i), reconcile.Result{}, err)
	}
	if unsafe.StringData(built[0]) == unsafe.StringData(built[1]) {
		t.Fatal("the test's messages share storage; they must be distinct copies")
	}
	_ = e
	ptrs := map[*byte]int{}
	hp.p.store.each(func(en *entry[reconcile.Request]) {
		ptrs[unsafe.StringData(en.lastErr.String())]++
		for _, r := range en.errs {
			ptrs[unsafe.StringData(r.text.String())]++
		}
	})
	if len(ptrs) != 1 {
		t.Errorf("%d keys with one message hold %d copies of it, want 1", n, len(ptrs))
	}
	for p := range ptrs {
		if slices.ContainsFunc(built, func(s string) bool { return unsafe.StringData(s) == p }) {
			t.Errorf("the store keeps a caller's string instead of its own copy")
		}
	}
}

func TestStoreHistoryRing(t *testing.T) {
	const attempts = historySize + 5
	e, hp := stProbe(t, 0, time.Hour)
	for i := range attempts {
		hp.run("default/w", reconcile.Result{}, fmt.Errorf("attempt %d", i))
	}
	k := e.get("v1/key?key=default/w")
	hist := k["history"].([]any)
	if len(hist) != historySize {
		t.Fatalf("history has %d attempts, want %d", len(hist), historySize)
	}
	var last time.Time
	for i, raw := range hist {
		a := raw.(map[string]any)
		if want := fmt.Sprintf("attempt %d", attempts-historySize+i); a["error"] != want {
			t.Errorf("history[%d].error = %v, want %q", i, a["error"], want)
		}
		at := htTime(t, a["at"])
		if !at.After(last) {
			t.Errorf("history[%d].at = %v, not after %v", i, at, last)
		}
		last = at
	}
	if k["totalFailures"] != float64(attempts) || k["failures"] != float64(attempts) {
		t.Errorf("totalFailures, failures = %v, %v, want %d", k["totalFailures"], k["failures"], attempts)
	}
}

func TestStoreDerivedStates(t *testing.T) {
	e, hp := stProbe(t, 0, time.Hour)
	q := hp.p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(hp.rl,
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Clock: e.clk}))
	t.Cleanup(q.ShutDown)
	state := func(key string) api.State {
		k, _, ok := hp.p.lookup(key)
		if !ok {
			t.Fatalf("no key %s", key)
		}
		return k.State
	}
	check := func(what, key string, want api.State) {
		t.Helper()
		if got := state(key); got != want {
			t.Errorf("%s: state of %s = %s, want %s", what, key, got, want)
		}
	}

	hp.run("default/fail", reconcile.Result{}, errors.New("boom"))
	check("after a failure", "default/fail", api.StateBackoff)
	k, _, _ := hp.p.lookup("default/fail")
	e.clk.SetTime(k.NextRetryAt.Add(-time.Nanosecond))
	check("just before the retry", "default/fail", api.StateBackoff)
	e.clk.Step(time.Nanosecond)
	check("retry time reached", "default/fail", api.StateQueued)

	hp.run("default/later", reconcile.Result{RequeueAfter: time.Minute}, nil)
	check("RequeueAfter", "default/later", api.StateScheduled)
	e.clk.Step(time.Minute)
	check("RequeueAfter passed", "default/later", api.StateQueued)

	hp.run("default/bad", reconcile.Result{}, reconcile.TerminalError(errors.New("bad")))
	check("terminal error", "default/bad", api.StateFailed)

	var during api.State
	r := hp.p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		during = state("default/run")
		return reconcile.Result{}, nil
	}))
	_, _ = r.Reconcile(context.Background(), htReq("default/run"))
	if during != api.StateRunning {
		t.Errorf("during Reconcile: state = %s, want %s", during, api.StateRunning)
	}
	check("after success", "default/run", api.StateIdle)

	q.Add(htReq("default/run")) // a watch event
	check("event on an idle key", "default/run", api.StateQueued)
	if k, _, _ := hp.p.lookup("default/run"); k.LastEventAt.IsZero() || k.QueuedAt.IsZero() {
		t.Errorf("lastEventAt, queuedAt = %v, %v, want both set", k.LastEventAt, k.QueuedAt)
	}
	item, _ := q.Get()
	check("taken by a worker", "default/run", api.StateRunning)
	_, _ = r.Reconcile(context.Background(), item)
	q.Done(item)
	check("reconciled", "default/run", api.StateIdle)
}

// TestStoreInfersTerminalWithoutReconciler: with only the queue and limiter
// instrumented, a key handed back with neither a requeue nor a Forget ended
// in a terminal error.
func TestStoreInfersTerminalWithoutReconciler(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC))
	p := New("bare", Options{Registry: NewRegistry(), Clock: clk})
	q := p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(p.RateLimiter(nil),
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Clock: clk}))
	t.Cleanup(q.ShutDown)
	for _, tt := range []struct {
		key     string
		outcome func(reconcile.Request)
		want    api.State
	}{
		{"default/ok", q.Forget, api.StateIdle},
		// "default/retry" (AddRateLimited) should read backoff, but reads idle:
		// see TestStoreUntrackedRetryIsBackoff.
		{"default/gave-up", func(reconcile.Request) {}, api.StateFailed},
	} {
		q.Add(htReq(tt.key))
		item, _ := q.Get()
		tt.outcome(item)
		q.Done(item)
		if k, _, _ := p.lookup(tt.key); k.State != tt.want {
			t.Errorf("%s: state = %s, want %s", tt.key, k.State, tt.want)
		}
	}
}

// TestStoreUntrackedRetryIsBackoff: without the reconciler decorator, the
// limiter's When arrives while the key is still running (between Get and
// Done); the key must still end in backoff.
func TestStoreUntrackedRetryIsBackoff(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC))
	p := New("bare", Options{Registry: NewRegistry(), Clock: clk})
	q := p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(p.RateLimiter(nil),
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Clock: clk}))
	t.Cleanup(q.ShutDown)
	q.Add(htReq("default/retry"))
	item, _ := q.Get()
	q.AddRateLimited(item)
	q.Done(item)
	if k, _, _ := p.lookup("default/retry"); k.State != api.StateBackoff || k.Failures != 1 {
		t.Errorf("state, failures = %s, %d, want backoff, 1", k.State, k.Failures)
	}
}
