package logs

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ownWords is what the test controller logs on each attempt, in its own
// words and at info level: no retry or drop words, not opening with a sync
// verb, no error field — nothing the generic reader's words read as a
// failed attempt. Only the log's structure can tell a failure from a poll.
func ownWords(key, err string) string { return "could not update status of " + key + ": " + err }

// ownLog runs a real controller whose reconciler logs ownWords on every
// attempt that st says failed or polled, through its own logger (named
// "widget") into a log of its own: controller-runtime's "Reconciler error"
// lines go elsewhere, as a bare client-go controller logs none. It returns
// the controller, the log and the limiter the real queue used.
func ownLog(t *testing.T, f loggerFormat, priority bool, st step) (*realController, *logBuffer, *recordingLimiter) {
	t.Helper()
	own := &logBuffer{}
	log := f.new(own, false).WithName("widget")
	return ownLogWith(t, own, priority, st, func(key string, res reconcile.Result, err error) {
		switch {
		case err != nil:
			log.Info(ownWords(key, err.Error()))
		case res.RequeueAfter > 0:
			log.Info(ownWords(key, "widget-api is not ready"))
		}
	})
}

// ownLogWith is ownLog, logging each attempt with logAttempt.
func ownLogWith(t *testing.T, own *logBuffer, priority bool, st step, logAttempt func(key string, res reconcile.Result, err error)) (*realController, *logBuffer, *recordingLimiter) {
	t.Helper()
	lim := &recordingLimiter{last: map[reconcile.Request]time.Duration{}}
	if priority { // controller-runtime v0.25.2's defaults (controller.NewTypedUnmanaged)
		lim.TypedRateLimiter = workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)
	} else {
		lim.TypedRateLimiter = workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()
	}
	rc := startRealWith(t, formats[1], false, false, priority, func(key string, n int) (reconcile.Result, error) {
		res, err := st(key, n)
		logAttempt(key, res, err)
		return res, err
	}, func(o *controller.TypedOptions[reconcile.Request]) {
		// Two workers: one key's blocked reconcile does not stop the other.
		o.RateLimiter, o.MaxConcurrentReconciles = lim, 2
	})
	return rc, own, lim
}

// ownFailures is how many times the key fails before its reconcile blocks:
// the real queue's count stays there. Nine failures take 1.3s of the
// limiter's delays (5ms..640ms).
const ownFailures = 9

// TestGrowingGapsFromRealQueue: a controller's own line, which no word
// list reads, is read as the key's failures because its gaps grow as the
// real queue's limiter delays them, and its count and delay are the real
// queue's; describe and --explain-lines say the growing gaps decided.
// Both queues; zap JSON (epoch) and klog text, whose stamps have the
// sub-second precision the first delays need. On the reader before
// evidence.go, no key is read. The lines are stamped on the queue's own
// schedule (queuestamp_test.go), so that a loaded machine's late retries
// do not break the gaps.
func TestGrowingGapsFromRealQueue(t *testing.T) {
	for _, priority := range []bool{true, false} {
		for _, f := range []loggerFormat{formats[1], formats[4]} {
			name := f.name + "/classic"
			if priority {
				name = f.name + "/priority"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				release := make(chan struct{})
				rc, own, lim := ownLogOnQueueTime(t, f, priority, func(_ string, n int) (reconcile.Result, error) {
					if n <= ownFailures {
						return reconcile.Result{}, errRefused
					}
					<-release
					return reconcile.Result{}, nil
				})
				t.Cleanup(func() { close(release) })
				rc.send("default/c1")
				rc.waitCalls(ownFailures + 1)
				req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "c1"}}
				wantN, wantDelay := lim.NumRequeues(req), lim.lastWhen(req)
				if wantN != ownFailures {
					t.Fatalf("the real queue counts %d failures; the scenario wants %d", wantN, ownFailures)
				}
				lines := own.lines()
				if len(lines) != ownFailures {
					t.Fatalf("%d lines of its own, want %d:\n%s", len(lines), ownFailures, strings.Join(lines, "\n"))
				}
				var why []string
				s := explainRead(t, lines, func(lr LineReading) {
					if lr.Key == "default/c1" {
						why = append(why, lr.Why)
					}
				})
				k := keyDetail(t, s, "widget", "default/c1")
				if k.Failures != wantN || k.Delay.Duration != wantDelay || !strings.HasPrefix(k.LastError.Message, errRefused.Error()) {
					t.Errorf("log mode: %d failures, delay %v, last error %q; the real queue: NumRequeues %d, When %v\n%s",
						k.Failures, k.Delay.Duration, k.LastError.Message, wantN, wantDelay, strings.Join(lines, "\n"))
				}
				if !strings.HasPrefix(k.LogEvidence, "growing gaps: its template \"could not update status of <*>\" comes for default/c1 after ") {
					t.Errorf("describe's evidence: %q, want the growing gaps", k.LogEvidence)
				}
				if len(why) != ownFailures || !strings.Contains(why[0], "read by growing gaps") {
					t.Errorf("--explain-lines gave %d readings of default/c1, want %d saying the growing gaps decided: %q", len(why), ownFailures, why)
				}
				// Live (top, a stream): decided as soon as the gaps show,
				// the lines before applied then.
				live := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(time.Now())})
				if _, _, err := live.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n")); err != nil {
					t.Fatal(err)
				}
				if k := keyDetail(t, live, "widget", "default/c1"); k.Failures != wantN || k.Delay.Duration != wantDelay {
					t.Errorf("live: %d failures, delay %v; the real queue: NumRequeues %d, When %v", k.Failures, k.Delay.Duration, wantN, wantDelay)
				}
			})
		}
	}
}

// TestTimedPollNotRead: the same words logged by a real controller that
// polls (RequeueAfter 1s, no error) come at equal gaps: no key is read,
// and --explain-lines says the gaps are a timed poll's — also for another
// key whose same line comes at growing gaps (the template is vetoed:
// precision first). Zap JSON (epoch), the classic queue.
//
// Equal gaps are the queue's on an idle machine; a loaded one (-race, 2
// cores) ran polls due 1s apart 1.00s, 1.12s, 1.37s and 1.40s apart (seen:
// 4 runs of 20), no timed poll to read. A run whose polls the machine made
// uneven (beyond 1.04s, well within the reader's tenth) is run again, up to
// 5 times, then skipped: the reader is held to equal gaps once the queue
// gave them, and a machine that never gives them tests nothing here.
func TestTimedPollNotRead(t *testing.T) {
	const polls, attempts = 5, 5
	for attempt := 1; ; attempt++ {
		lines, gaps := timedPollLog(t, polls)
		if uneven := slices.ContainsFunc(gaps, func(g time.Duration) bool { return g > time.Second+40*time.Millisecond }); uneven {
			if attempt == attempts {
				// Not the reader's failure: the input it is tested on
				// could not be made. A skip says so in -v output
				// without failing a run on a busy machine.
				t.Skipf("%d runs, none with the poll's gaps within 40ms of its 1s (last: %v): the machine is too loaded to make a timed poll's equal gaps", attempts, gaps)
			}
			t.Logf("run %d: the poll's gaps %v, not even: again", attempt, gaps)
			continue
		}
		var vetoed int
		s := explainRead(t, lines, func(lr LineReading) {
			if strings.Contains(lr.Why, "equal gaps: a timed poll") {
				vetoed++
			}
		})
		if _, keys := s.views(""); len(keys) != 0 {
			t.Errorf("read %d keys from a poll's lines (first %s, %d failures; poll gaps %v), want none\n%s", len(keys), keys[0].Key, keys[0].Failures, gaps, strings.Join(lines, "\n"))
		}
		if vetoed != polls+ownFailures {
			t.Errorf("--explain-lines said the timed poll for %d lines, want %d (poll gaps %v)\n%s", vetoed, polls+ownFailures, gaps, strings.Join(lines, "\n"))
		}
		return
	}
}

// timedPollLog runs TestTimedPollNotRead's controller: default/poll polls
// polls times, default/c2 fails ownFailures times, then both are held. It
// returns the log and the gaps between the poll's attempts, as the
// reconciler saw them end (its line's stamp, microseconds later).
func timedPollLog(t *testing.T, polls int) (lines []string, gaps []time.Duration) {
	t.Helper()
	release := make(chan struct{})
	var mu sync.Mutex
	var ends []time.Time
	rc, own, _ := ownLog(t, formats[1], false, func(key string, n int) (reconcile.Result, error) {
		switch {
		case key == "default/poll" && n <= polls:
			mu.Lock()
			ends = append(ends, time.Now())
			mu.Unlock()
			return reconcile.Result{RequeueAfter: time.Second}, nil
		case key == "default/c2" && n <= ownFailures:
			return reconcile.Result{}, errRefused
		}
		<-release
		return reconcile.Result{}, nil
	})
	t.Cleanup(func() { close(release) })
	rc.send("default/poll")
	rc.send("default/c2")
	rc.waitCalls(polls + 1 + ownFailures + 1)
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(ends); i++ {
		gaps = append(gaps, ends[i].Sub(ends[i-1]))
	}
	return own.lines(), gaps
}

// TestInnerCauseCountedOnce: a real controller that logs each failed
// attempt twice — its own inner cause at error level (a candidate, whose
// template's gaps grow), then the handler's "Error syncing KEY, requeuing"
// — is read with the real queue's count, not twice it. Its lines are
// stamped on the queue's own schedule (queuestamp_test.go): the inner
// cause is read by its growing gaps, which late retries would break.
func TestInnerCauseCountedOnce(t *testing.T) {
	release := make(chan struct{})
	own := &logBuffer{}
	t0 := time.Now()
	var lim *recordingLimiter // set before the first event is sent
	rc, _, lim := ownLogWith(t, own, false, func(_ string, n int) (reconcile.Result, error) {
		if n <= ownFailures {
			return reconcile.Result{}, errRefused
		}
		<-release
		return reconcile.Result{}, nil
	}, func(key string, _ reconcile.Result, err error) {
		if err != nil {
			at := lim.queueTime(t0, key)
			stampedLogger(t, formats[1], own, at).WithName("widget").Error(err, "could not update status of "+key)
			stampedLogger(t, formats[1], own, at.Add(50*time.Microsecond)).WithName("widget").Error(err, "Error syncing "+key+", requeuing")
		}
	})
	t.Cleanup(func() { close(release) })
	rc.send("default/c1")
	rc.waitCalls(ownFailures + 1)
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "c1"}}
	lines := own.lines()
	var merged int
	s := explainRead(t, lines, func(lr LineReading) {
		if strings.HasPrefix(lr.Meaning, "the same failed attempt as line") {
			merged++
		}
	})
	k := keyDetail(t, s, "widget", "default/c1")
	if k.Failures != lim.NumRequeues(req) || merged != ownFailures {
		t.Errorf("log mode: %d failures, %d inner causes merged; the real queue: NumRequeues %d, %d attempts\n%s",
			k.Failures, merged, lim.NumRequeues(req), ownFailures, strings.Join(lines, "\n"))
	}
}

// BenchmarkCandidates reads 20,000 lines of 200 keys failing side by
// side: lines the generic reader's words read ("Error syncing KEY,
// requeuing: ERR"), and the same attempts in words only the log's
// structure reads (candidates, mined and judged), so that the cost of
// candidates is seen beside the words' in one run.
func BenchmarkCandidates(b *testing.B) {
	build := func(msg func(key string) string) []byte {
		var sb strings.Builder
		at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		for i := range 20_000 {
			key := "default/w" + strconv.Itoa(i%200)
			at = at.Add(time.Millisecond)
			sb.WriteString("E" + at.Format("0102 15:04:05.000000") + "       1 widget.go:42] " + msg(key) + "\n")
		}
		return []byte(sb.String())
	}
	for _, tt := range []struct {
		name string
		log  []byte
	}{
		{"words", build(func(key string) string { return "Error syncing " + key + ", requeuing: " + errRefused.Error() })},
		{"candidates", build(func(key string) string { return "could not update status of " + key + ": " + errRefused.Error() })},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.log)))
			for b.Loop() {
				s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))})
				if _, _, err := s.Read(context.Background(), bytes.NewReader(tt.log)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// explainRead reads lines, as a saved log, into a Store whose clock stands
// at now, handing each line's reading to explain (--explain-lines).
func explainRead(t *testing.T, lines []string, explain func(LineReading)) *Store {
	t.Helper()
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Now()), ExplainLines: explain})
	if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n")); err != nil {
		t.Fatal(err)
	}
	return s
}
