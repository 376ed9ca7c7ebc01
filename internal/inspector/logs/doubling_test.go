package logs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// cloudServiceLine is the line cloud-provider's service controller logs on
// a failure it retries (controllers/service/controller.go, processNextWorkItem:
// runtime.HandleError of "error processing service %v (retrying with
// exponential backoff): %v", klog's text as HandleError writes it).
func cloudServiceLine(at time.Time, key string) string {
	return fmt.Sprintf(`E%s   20513 controller.go:302] "Unhandled Error" err="error processing service %s (retrying with exponential backoff): failed to ensure load balancer: googleapi: Error 403: QUOTA_EXCEEDED, quotaExceeded" logger="UnhandledError"`,
		at.UTC().Format("0102 15:04:05.000000"), key)
}

// TestDoublingGapsAreTheControllersExponential drives cloud-provider's
// service queue (client-go's rate-limited queue on
// NewTypedItemExponentialFailureRateLimiter(5s, 300s), its minRetryDelay
// and maxRetryDelay) with a fake clock: the key fails on every retry, each
// failure logged as the controller logs it, a worker taking 12ms to 140ms
// to fail it. Log mode, assuming client-go's 5ms default, read each gap
// (5s, 10s, 20s…) as far late: a success not logged, a new streak of 1.
// Its gaps double: the count is the queue's NumRequeues, and the next
// retry the queue's own When for the next failure, within the workers'
// lateness.
func TestDoublingGapsAreTheControllersExponential(t *testing.T) {
	for _, failures := range []int{3, 4, 6} {
		t.Run(fmt.Sprint(failures), func(t *testing.T) {
			start := time.Date(2026, 12, 7, 6, 9, 54, 499603000, time.UTC)
			clk := clocktesting.NewFakeClock(start)
			lim := workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Second, 300*time.Second)
			q := workqueue.NewTypedRateLimitingQueueWithConfig(lim, workqueue.TypedRateLimitingQueueConfig[string]{Name: "service", Clock: clk})
			defer q.ShutDown()
			const key = "checkout/storefront-gateway"
			q.Add(key)
			// twin runs beside the queue's limiter, from the same count: the
			// delay the queue's When chose for each failure.
			twin := workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Second, 300*time.Second)
			var lines []string
			var lastFail time.Time
			var wantDelay time.Duration
			for i := range failures {
				if i > 0 {
					clk.Step(wantDelay) // the retry comes due
				}
				got := getWithin(t, q)
				clk.Step(time.Duration(12+i*23) * time.Millisecond) // the sync's own time
				lastFail = clk.Now()
				lines = append(lines, cloudServiceLine(lastFail, got))
				q.AddRateLimited(got)
				q.Done(got)
				wantDelay = twin.When(key)
			}
			wantN := lim.NumRequeues(key)
			k := keyDetail(t, readLog(t, lastFail, lines...), "controller", key)
			next := lastFail.Add(wantDelay)
			// The gaps carry the workers' lateness (≤ 140ms each): twice the
			// last gap is the queue's delay within twice that.
			if k.Failures != wantN || k.State != api.StateBackoff || k.DelaySource != api.SourceDoubling ||
				(k.NextRetryAt.Sub(next)).Abs() > 300*time.Millisecond || !k.FirstFailureAt.Equal(lines0(t, lines)) {
				t.Errorf("log mode: %d failures since %v, delay %v (%s), next %v, %s; the real queue: NumRequeues %d, When %v, next %v\n%s",
					k.Failures, k.FirstFailureAt, k.Delay.Duration, k.DelaySource, k.NextRetryAt, k.State, wantN, wantDelay, next, strings.Join(lines, "\n"))
			}
			for i, a := range k.History {
				if i > 0 && a.Trigger != api.TriggerRetry {
					t.Errorf("attempt %d at %v read %q, want a retry", i+1, a.At, a.Trigger)
				}
			}
		})
	}
}

// getWithin takes the key the queue hands out, failing the test if it has
// not by a deadline.
func getWithin(t *testing.T, q workqueue.TypedRateLimitingInterface[string]) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		k, _ := q.Get()
		got <- k
	}()
	select {
	case k := <-got:
		return k
	case <-time.After(10 * time.Second):
		t.Fatal("the queue handed out no key within 10s")
		return ""
	}
}

func lines0(t *testing.T, lines []string) time.Time {
	t.Helper()
	r, ok := Parse([]byte(lines[0]), time.Now())
	if !ok {
		t.Fatalf("line not read: %s", lines[0])
	}
	return r.At
}

// TestDoublingFixture1411: cloud-controller-manager's log (batch14/1411):
// the service controller's keys fail at 06:09:54, 06:10:04, 06:10:24 (10s,
// then 20s: its own 5s..300s exponential), the node controller's
// gpu-node-2 at gaps of 5.1s, 10.2s, 20.5s. Each key is one streak,
// retried, its next retry twice its last gap.
func TestDoublingFixture1411(t *testing.T) {
	paths, err := filepath.Glob("testdata/batch14/1411-*.log")
	if err != nil || len(paths) != 1 {
		t.Fatalf("fixture: %v %v", paths, err)
	}
	raw, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	last, _ := Parse([]byte(lines[len(lines)-1]), time.Now())
	s := readLog(t, last.At, lines...)
	for _, c := range []struct {
		controller, key string
		failures        int
		next            string
	}{
		{"controller", "checkout/storefront-gateway", 3, "06:11:04"},
		{"controller", "search/grafana", 3, "06:11:04"},
		{"node_controller", "gpu-node-2", 4, "06:11:11"},
	} {
		k := keyDetail(t, s, c.controller, c.key)
		if k.Failures != c.failures || k.State != api.StateBackoff || k.DelaySource != api.SourceDoubling ||
			k.NextRetryAt.UTC().Format(time.TimeOnly) != c.next {
			t.Errorf("%s: %d failures, %s, delay %v (%s), next %v; want %d failures in backoff, next %s",
				c.key, k.Failures, k.State, k.Delay.Duration, k.DelaySource, k.NextRetryAt, c.failures, c.next)
		}
	}
}

// TestDoublesKeepsOtherReadings: what is not a doubling of the
// controller's own stays as it was read: a steady period (kube-controller-
// manager's namespace controller, every 60s), a fresh ramp on the assumed
// limiter (5ms, 10ms), whole-second stamps a second apart (1s, 2s: ±1s
// each), gaps that grow but not twofold, and the assumed limiter's own
// ramp at the running count.
func TestDoublesKeepsOtherReadings(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		name                       string
		prev, cur, coarse, assumed time.Duration
		want                       bool
	}{
		{"cloud-provider 10s then 20s", 10 * s, 20 * s, 0, 5 * time.Millisecond, true},
		{"whole seconds 5s then 10s", 5 * s, 10 * s, s, 5 * time.Millisecond, true},
		{"steady 60s", 60 * s, 60 * s, 0, 5 * time.Millisecond, false},
		{"fresh ramp 5ms then 10ms", 5 * time.Millisecond, 10 * time.Millisecond, 0, 5 * time.Millisecond, false},
		{"whole seconds 1s then 2s", s, 2 * s, s, 5 * time.Millisecond, false},
		{"grows by half", 10 * s, 15 * s, 0, 5 * time.Millisecond, false},
		{"the assumed ramp at its count", 10240 * time.Millisecond, 20480 * time.Millisecond, 0, 10240 * time.Millisecond, false},
	} {
		if got := doubles(c.prev, c.cur, c.coarse, c.assumed); got != c.want {
			t.Errorf("%s: doubles(%v, %v) = %v, want %v", c.name, c.prev, c.cur, got, c.want)
		}
	}
	// The assumed limiter's ladder, seen from a count the log missed: its
	// next delay, not twice a late gap (kube-ovn's 40.97s, 81.93s: 2m43.84s).
	if got := doubledDelay(81930*time.Millisecond, 0, DefaultLimiter); got != 163840*time.Millisecond {
		t.Errorf("after a gap of 81.93s on the default ladder: %v, want 2m43.84s", got)
	}
	if got := doubledDelay(20*s+2*time.Millisecond, 0, DefaultLimiter); got != 40*s+4*time.Millisecond {
		t.Errorf("after a gap of 20.002s (5s base): %v, want twice it", got)
	}
}
