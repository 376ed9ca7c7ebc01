package logs

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// recordingLimiter is the limiter controller-runtime would give the queue,
// recording the delay its last When chose per key: what the real queue
// waits, read from the queue itself.
type recordingLimiter struct {
	workqueue.TypedRateLimiter[reconcile.Request]
	mu   sync.Mutex
	last map[reconcile.Request]time.Duration
	// waits is every delay When chose, per key, in order (queuestamp_test.go).
	waits map[reconcile.Request][]time.Duration
}

func (l *recordingLimiter) When(r reconcile.Request) time.Duration {
	d := l.TypedRateLimiter.When(r)
	l.mu.Lock()
	l.last[r] = d
	if l.waits == nil {
		l.waits = map[reconcile.Request][]time.Duration{}
	}
	l.waits[r] = append(l.waits[r], d)
	l.mu.Unlock()
	return d
}

func (l *recordingLimiter) lastWhen(r reconcile.Request) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last[r]
}

// freshRampSteps: default/c1 fails 11 times (its count reaches 11), then
// succeeds on its retry (Forget: not logged at the default level), then,
// on the next event, fails 5 times in a fresh ramp; the 6th reconcile
// waits until the test ends, so the queue's count stays at 5.
const (
	firstStreak, secondStreak = 11, 5
)

// TestFreshRampRestartsStreak: a key that succeeded, unlogged, and failed
// again is read as the real queue counts it. Without the fresh ramp rule
// log mode ran the two streaks into one (16 failures, a 5m27s delay) where
// the queue counts 5 and waits 80ms. Both queues; whole-second and
// fractional timestamps.
func TestFreshRampRestartsStreak(t *testing.T) {
	for _, priority := range []bool{true, false} {
		for _, f := range []loggerFormat{formats[0], formats[1]} { // rfc3339 (whole seconds), epoch
			name := f.name + "/classic"
			if priority {
				name = f.name + "/priority"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				freshRamp(t, f, priority)
			})
		}
	}
}

// freshRampRuns is how many times freshRamp runs the scenario whose
// queue the machine made uneven before it gives up, skipping.
const freshRampRuns = 5

// freshRamp runs the scenario and holds log mode to what the real queue
// counts. A fresh ramp is read from its gaps, 5ms to 40ms: a loaded
// machine (-race, 2 cores, the package's other real queues) stretched
// one of them past its limiter's delay (seen: one full run in two at load
// 17). A run whose reconciles came off their delays (beyond half of it
// and 3ms) and whose reading differs is run again, up to freshRampRuns
// times, then skipped: the reader is held to the queue's answer once the
// queue's gaps were its limiter's, and a run whose gaps were its
// limiter's and whose reading differs fails at once.
func freshRamp(t *testing.T, f loggerFormat, priority bool) {
	for run := 1; ; run++ {
		problems, uneven := freshRampOnce(t, f, priority)
		switch {
		case len(problems) == 0:
			return
		case uneven == "":
			for _, p := range problems {
				t.Error(p)
			}
			return
		case run == freshRampRuns:
			t.Skipf("%d runs, none with the fresh ramp's gaps its limiter's (last: %s): the machine is too loaded to make the input; its reading: %s", run, uneven, problems[0])
		}
		t.Logf("run %d: %s; again", run, uneven)
	}
}

// freshRampOnce runs the scenario once: what log mode got wrong, and how
// the second streak's gaps came off the limiter's delays ("" when they
// did not).
func freshRampOnce(t *testing.T, f loggerFormat, priority bool) (problems []string, uneven string) {
	release := make(chan struct{})
	lim := &recordingLimiter{last: map[reconcile.Request]time.Duration{}}
	if priority { // controller-runtime's defaults (controller.NewTypedUnmanaged)
		lim.TypedRateLimiter = workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)
	} else {
		lim.TypedRateLimiter = workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()
	}
	var mu sync.Mutex
	var called []time.Time // when each reconcile began
	rc := startRealWith(t, f, false, false, priority, func(_ string, n int) (reconcile.Result, error) {
		mu.Lock()
		called = append(called, time.Now())
		mu.Unlock()
		switch {
		case n <= firstStreak:
			return reconcile.Result{}, errRefused
		case n == firstStreak+1:
			return reconcile.Result{}, nil
		case n <= firstStreak+1+secondStreak:
			return reconcile.Result{}, errRefused
		}
		<-release
		return reconcile.Result{}, nil
	}, func(o *controller.TypedOptions[reconcile.Request]) { o.RateLimiter = lim })
	t.Cleanup(func() { close(release) })
	rc.send("default/c1")
	rc.waitCalls(firstStreak + 1)
	rc.send("default/c1")
	rc.waitCalls(firstStreak + 1 + secondStreak + 1)
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "c1"}}
	wantN, wantDelay := lim.NumRequeues(req), lim.lastWhen(req)
	if wantN != secondStreak {
		t.Fatalf("the real queue counts %d failures; the scenario wants %d", wantN, secondStreak)
	}
	mu.Lock()
	// The second streak's reconciles, 13th to 18th, each after the delay
	// the limiter gave the failure before it: 5ms, 10ms, 20ms, 40ms, 80ms.
	for i := firstStreak + 2; i < firstStreak+2+secondStreak; i++ {
		gap, delay := called[i].Sub(called[i-1]), 5*time.Millisecond<<(i-firstStreak-2)
		if d := gap - delay; d > delay/2+3*time.Millisecond || -d > delay/2+3*time.Millisecond {
			uneven = fmt.Sprintf("reconcile %d came %v after the one before, for a delay of %v", i+1, gap, delay)
			break
		}
	}
	mu.Unlock()
	lines := rc.buf.lines()
	if got := countLines(lines, msgError); got != firstStreak+secondStreak {
		t.Fatalf("%d error lines, want %d", got, firstStreak+secondStreak)
	}
	var rampStart time.Time
	for i, n := 0, 0; i < len(lines); i++ {
		if r, ok := Parse([]byte(lines[i]), time.Now()); ok && r.What == ErrorLine {
			if n++; n == firstStreak+1 {
				rampStart = r.At
			}
		}
	}
	k := keyDetail(t, readLog(t, time.Now(), lines...), "widget", "default/c1")
	if k.Failures != wantN || k.Delay.Duration != wantDelay || k.State != api.StateBackoff || !k.FirstFailureAt.Equal(rampStart) {
		problems = append(problems, fmt.Sprintf("log mode: %d failures, delay %v (%s), %s, streak from %v; the real queue: NumRequeues %d, When %v, streak from %v\n%s",
			k.Failures, k.Delay.Duration, k.DelaySource, k.State, k.FirstFailureAt, wantN, wantDelay, rampStart, strings.Join(lines, "\n")))
	}
	var said []string
	explainRead(t, lines, func(lr LineReading) {
		if strings.Contains(lr.Meaning, "a new streak from "+rampStart.UTC().Format(time.TimeOnly)+": 4 failures in a fresh ramp") {
			said = append(said, lr.Meaning)
		}
	})
	if len(said) != 1 {
		problems = append(problems, fmt.Sprintf("--explain-lines said the new streak %d times, want once: %q", len(said), said))
	}
	var marked bool
	for _, a := range k.History {
		if a.Trigger == api.TriggerNewStreak && a.At.Equal(rampStart) {
			marked = true
		}
	}
	if !marked {
		problems = append(problems, fmt.Sprintf("no attempt at %v marked %q in the history: %+v", rampStart, api.TriggerNewStreak, k.History))
	}
	return problems, uneven
}
