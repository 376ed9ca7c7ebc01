package logs

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

var writeQueueFixture = flag.Bool("write-queue-fixture", false, "TestWriteQueueFixture: run real controllers on the priority queue at V(5) and write testdata/queue/*.log")

// queueFixtures are the logs TestWriteQueueFixture writes, by format.
var queueFixtures = map[string]loggerFormat{"zap-json.log": formats[0], "klog.log": formats[4]}

// TestWriteQueueFixture writes testdata/queue's logs (see its README): a
// real controller-runtime v0.25.2 controller on its priority queue, one
// worker, a zap or klog logger at V(5), through two of the queue's
// 10-second workqueue_items ticks:
//
//   - default/failing fails every time (the queue's default limiter:
//     5ms·2^n), so at the first tick it waits in the queue, its readyAt
//     the limiter's;
//   - default/polled returns RequeueAfter 30s with priority -100, so it
//     waits with that priority until its readyAt;
//   - after the first tick, default/slow holds the one worker until the
//     second tick has been logged, so default/waiting (sent then) and
//     default/failing (due meanwhile) are ready, waiting for a worker, at
//     the second tick: no readyAt.
//
// The log ends with default/failing's next failure after slow returns.
func TestWriteQueueFixture(t *testing.T) {
	if !*writeQueueFixture {
		t.Skip("writes the fixture: -write-queue-fixture (about 25s a format)")
	}
	for name, f := range queueFixtures {
		t.Run(name, func(t *testing.T) {
			release := make(chan struct{})
			rc := startRealWith(t, f, true, false, true, func(key string, n int) (reconcile.Result, error) {
				switch key {
				case "default/failing":
					return reconcile.Result{}, errRefused
				case "default/polled":
					return reconcile.Result{RequeueAfter: 30 * time.Second, Priority: ptr.To(-100)}, nil
				case "default/slow":
					<-release
				}
				return reconcile.Result{}, nil
			}, func(o *controller.TypedOptions[reconcile.Request]) { o.MaxConcurrentReconciles = 1 })
			rc.send("default/failing")
			rc.send("default/polled")
			long := waitFor
			waitQueueLines(t, rc, 1, long)
			rc.send("default/slow")
			rc.send("default/waiting")
			waitQueueLines(t, rc, 2, long)
			errs := countLines(rc.buf.lines(), msgError)
			close(release)
			lines := rc.waitLines("a failure after slow returns", func(l []string) bool { return countLines(l, msgError) > errs })
			// What was logged up to that failure, whole lines only.
			var out []string
			for _, l := range lines {
				out = append(out, l)
				if strings.Contains(l, msgError) && countLines(out, msgError) > errs {
					break
				}
			}
			path := filepath.Join("testdata", "queue", name)
			if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s: %d lines", path, len(out))
		})
	}
}

// waitQueueLines waits until the log holds n workqueue_items lines: the
// queue logs one every 10s, so the wait is longer than waitFor.
func waitQueueLines(t *testing.T, rc *realController, n int, long time.Duration) {
	t.Helper()
	deadline := time.Now().Add(10*time.Second + long)
	for countLines(rc.buf.lines(), msgQueue) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d workqueue_items lines within %v, want %d", countLines(rc.buf.lines(), msgQueue), 10*time.Second+long, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
