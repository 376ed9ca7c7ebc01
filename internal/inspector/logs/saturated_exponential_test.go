package logs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
)

// dueLimiter is client-go's limiter, its every When noted: the
// delaying queue's goroutine moves an item to the queue when its time comes,
// and the test waits for that (queueWaits), not for a sleep.
type dueLimiter struct {
	workqueue.TypedRateLimiter[string]
	readyAt map[string]time.Time
	// last is each key's last delay, what the reader should estimate.
	last map[string]time.Duration
	clk  *clocktesting.FakeClock
}

func (r *dueLimiter) When(k string) time.Duration {
	d := r.TypedRateLimiter.When(k)
	r.readyAt[k] = r.clk.Now().Add(d)
	r.last[k] = d
	return d
}

// exponentialOutageLog is a controller-runtime controller's log of a mass
// failure under client-go's per-item exponential limiter alone
// (NewTypedItemExponentialFailureRateLimiter(5ms, 1000s): no bucket), on a
// real rate-limiting queue and a fake clock: 110 keys, one worker, each
// reconcile failing after 100ms (a dial's timeout), so failures are logged
// at 10 a second, the pace of client-go's default bucket, while the queue
// holds a key ready; a key's retry waits for the worker (~11s) until its
// own delay outgrows that (5ms·2^12 = 20.48s), then its delay alone. The
// lines are controller-runtime's "Reconciler error" in zap's production
// JSON with its default RFC 3339 stamps, as reconcileHandler logs them,
// from join on (a log joined mid-outage: tail -f, kubectl logs --since).
func exponentialOutageLog(t *testing.T, join, end time.Duration) (string, map[string]time.Duration) {
	t.Helper()
	clk := clocktesting.NewFakeClock(t0)
	rl := &dueLimiter{TypedRateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second), readyAt: map[string]time.Time{}, last: map[string]time.Duration{}, clk: clk}
	q := workqueue.NewTypedRateLimitingQueueWithConfig[string](rl, workqueue.TypedRateLimitingQueueConfig[string]{Clock: clk})
	defer q.ShutDown()
	keys := make([]string, 110)
	for i := range keys {
		keys[i] = fmt.Sprintf("w%03d", i)
		q.Add(keys[i])
	}
	ready := len(keys) // keys in the queue, as the test counts them
	var b strings.Builder
	for clk.Since(t0) < end {
		// Wait for the delaying queue's goroutine to have added every key
		// whose time has come (its timers fire on the fake clock's steps).
		for k, at := range rl.readyAt {
			if !at.After(clk.Now()) {
				delete(rl.readyAt, k)
				ready++
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for q.Len() != ready {
			if time.Now().After(deadline) {
				t.Fatalf("at %v the queue holds %d keys, want %d", clk.Since(t0), q.Len(), ready)
			}
			clk.Step(0) // fires nothing new; lets the queue's goroutine run
		}
		if ready == 0 {
			// The worker idles until the next key's delay is over.
			next := time.Time{}
			for _, at := range rl.readyAt {
				if next.IsZero() || at.Before(next) {
					next = at
				}
			}
			clk.SetTime(next)
			continue
		}
		k, _ := q.Get()
		ready--
		clk.Step(100 * time.Millisecond) // the reconcile, failing
		if at := clk.Since(t0); at >= join {
			writeReconcilerError(&b, clk.Now(), k, "Get \"https://inventory/v1/items\": dial tcp 10.0.0.7:443: i/o timeout")
		}
		q.AddRateLimited(k) // reconcileHandler, on an error
		q.Done(k)
	}
	return b.String(), rl.last
}

// writeReconcilerError writes controller-runtime's line for a failed
// reconcile of ConfigMap widgets/NAME, as its zap production encoder does
// (stamps to the second, the stacktrace cut).
func writeReconcilerError(b *strings.Builder, at time.Time, name, msg string) {
	line := map[string]any{
		"level": "error", "ts": at.UTC().Format(time.RFC3339), "msg": "Reconciler error",
		"controller": "widget", "controllerGroup": "", "controllerKind": "ConfigMap",
		"ConfigMap": map[string]string{"name": name, "namespace": "widgets"}, "namespace": "widgets", "name": name,
		"reconcileID": fmt.Sprintf("%08x-0000-4000-8000-000000000000", at.UnixNano()&0xffffffff), "error": msg,
		"stacktrace": "sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).reconcileHandler\n\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.25.2/pkg/internal/controller/controller.go:497",
	}
	// zap writes its keys in the order logged; the reader does not mind.
	j, _ := json.Marshal(line)
	b.Write(j)
	b.WriteByte('\n')
}

// TestPaceOfAnExponentialIsNoBucket: a log joined during a mass failure
// under a per-item exponential alone, its failures logged at 10 a second
// (one worker, 100ms a reconcile), shows the pace a bucket of 10 qps would
// make: a key's retry 11s after its failure with 110 failures between.
// The log cannot tell the two apart, so the reader, which votes a bucket in
// from that pace, must say so in the limiter it describes; and no key's
// estimated delay may be over what client-go's queue really waits (the
// estimate is a floor from the key's spacing, never an invented wait).
func TestPaceOfAnExponentialIsNoBucket(t *testing.T) {
	log, last := exponentialOutageLog(t, 60*time.Second, 200*time.Second)
	if n := strings.Count(log, "\n"); n < 500 {
		t.Fatalf("the log holds %d lines; the outage is not what the test means", n)
	}
	s := NewStore(Options{})
	if _, _, err := s.Read(t.Context(), strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	cs := s.Controllers().Controllers
	if len(cs) != 1 {
		t.Fatalf("%d controllers, want widget alone", len(cs))
	}
	if d := cs[0].Limiter.Description; strings.Contains(d, "bucket") && !strings.Contains(d, "cannot tell the two apart") {
		t.Errorf("limiter %q claims a bucket the log cannot show: a per-item limiter alone, its workers failing a key each 100ms, logs the same pace", d)
	}
	_, keys := s.views("widget")
	if len(keys) != 110 {
		t.Fatalf("%d keys read, want the 110 of the outage", len(keys))
	}
	for _, k := range keys {
		want, ok := last[strings.TrimPrefix(k.Key, "widgets/")]
		if !ok {
			t.Fatalf("key %s is not one of the outage's", k.Key)
		}
		if k.Delay.Duration <= 0 || k.Delay.Duration > want {
			t.Errorf("%s: estimated delay %v, over client-go's %v (%s)", k.Key, k.Delay, want, k.DelaySource)
		}
	}
}
