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

// aggregationLine is the line kube-controller-manager's clusterrole
// aggregation controller logs on a failure it retries
// (clusterroleaggregation_controller.go:215: HandleError of "%v failed with
// : %v", then AddRateLimited), as batch14/1440 has it.
func aggregationLine(at time.Time, key string) string {
	return fmt.Sprintf(`E%s    6538 clusterroleaggregation_controller.go:215] "Unhandled Error" err="%s failed with : clusterroles.rbac.authorization.k8s.io \"%s\" is forbidden: ValidatingAdmissionPolicy 'lock-rbac-and-pvcs' with binding 'lock-rbac-and-pvcs' denied request: change blocked by policy SEC-118 (break-glass required)" logger="UnhandledError"`,
		at.UTC().Format("0102 15:04:05.000000"), key, key)
}

// TestLateGapOnTheLimitersRamp drives the controller's queue (client-go's
// DefaultControllerRateLimiter, as kube-controller-manager builds it) with
// a fake clock: the key has failed before the log read starts (its count
// unseen), then fails twice more on its retries, each logged. The gap
// between the two is the limiter's delay for the unseen count, far longer
// than the one failure shown gives: log mode read it as a success not
// logged, FAILS 1 and "unknown" once its 5ms retry was past. It is one
// streak, still in backoff.
func TestLateGapOnTheLimitersRamp(t *testing.T) {
	for _, unseen := range []int{10, 12, 14} {
		t.Run(fmt.Sprint(unseen), func(t *testing.T) {
			clk := clocktesting.NewFakeClock(time.Date(2026, 12, 7, 6, 26, 45, 326489000, time.UTC))
			q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
				workqueue.TypedRateLimitingQueueConfig[string]{Name: "ClusterRoleAggregator", Clock: clk})
			defer q.ShutDown()
			const key = "monitoring-view"
			q.Add(key)
			var lines []string
			var last time.Time
			for i := range unseen + 2 {
				got := getWithin(t, q)
				clk.Step(7 * time.Millisecond) // the sync's own time
				if i >= unseen {
					last = clk.Now()
					lines = append(lines, aggregationLine(last, got))
				}
				q.AddRateLimited(got)
				q.Done(got)
				if i < unseen+1 {
					// The retry comes due: the per-item delay, past any
					// token the bucket made it wait for.
					clk.Step(exponentialDelay(i + 1))
				}
			}
			// Read half a gap after the last failure, as the fixture is
			// (10s after a 20.48s gap): its retry is not yet due. The next
			// retry is estimated no sooner than the gap (the key's own
			// spacing) and no later than the queue's (twice the gap).
			gap := exponentialDelay(unseen + 1)
			k := keyDetail(t, readLog(t, last.Add(gap/2), lines...), "clusterroleaggregation_controller", key)
			if k.Failures != 2 || k.TotalFailures != 2 || k.State != api.StateBackoff ||
				k.NextRetryAt.Before(last.Add(gap-time.Second)) || k.NextRetryAt.After(last.Add(2*gap+time.Second)) {
				t.Errorf("%d unseen failures: %d failures (%d in all), %s, next retry %v; want one streak of 2 in backoff, its retry %v to %v\n%s",
					unseen, k.Failures, k.TotalFailures, k.State, k.NextRetryAt, last.Add(gap), last.Add(2*gap), strings.Join(lines, "\n"))
			}
		})
	}
}

// exponentialDelay is client-go's default per-item delay after the n-th
// failure: 5ms·2^(n−1), capped at 1000s.
func exponentialDelay(n int) time.Duration { return DefaultLimiter.Delay(n) }

// TestLateGapFixture1440: kube-controller-manager's log (batch14/1440, its
// own 4th run, read from line 650): monitoring-view fails at 06:33:07.331
// and 06:33:27.818, 20.487s apart, the delay 5ms·2^12 after failures the
// excerpt does not hold. One streak of 2, in backoff (it read FAILS 1,
// unknown). lab/legacy-db's 16.005s gap is none of the limiter's delays:
// still read as a success not logged, a new streak of 1.
func TestLateGapFixture1440(t *testing.T) {
	paths, err := filepath.Glob("testdata/batch14/1440-*.log")
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
		state           api.State
	}{
		{"clusterroleaggregation_controller", "monitoring-view", 2, api.StateBackoff},
		{"endpointslicemirroring_controller", "lab/legacy-db", 1, api.StateUnknown},
	} {
		k := keyDetail(t, s, c.controller, c.key)
		if k.Failures != c.failures || k.TotalFailures != 2 || k.State != c.state {
			t.Errorf("%s: %d failures (%d in all), %s; want %d (2 in all), %s", c.key, k.Failures, k.TotalFailures, k.State, c.failures, c.state)
		}
	}
}
