package logs

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// bothFailures is how many times default/b1 returns both a RequeueAfter
// and an error before its next reconcile waits until the test ends.
const bothFailures = 4

// TestBothResultAndErrorWarning: a real controller-runtime v0.25 reconciler
// that returns Result{RequeueAfter} with an error makes reconcileHandler log
// "Warning: Reconciler returned both …" and then "Reconciler error" for one
// rate-limited requeue. Log mode counts the real queue's NumRequeues: each
// pair once in the whole log; the warning alone when the paste is cut
// before its "Reconciler error" (then the error is said not to be in the
// log); and the warnings alone when every "Reconciler error" is gone.
func TestBothResultAndErrorWarning(t *testing.T) {
	for _, f := range []loggerFormat{formats[0], formats[3], formats[4]} { // zap JSON, zap console, klog text
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			lim := &recordingLimiter{last: map[reconcile.Request]time.Duration{},
				TypedRateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)}
			rc := startRealWith(t, f, false, false, true, func(_ string, n int) (reconcile.Result, error) {
				if n <= bothFailures {
					return reconcile.Result{RequeueAfter: time.Minute}, errRefused
				}
				<-release
				return reconcile.Result{}, nil
			}, func(o *controller.TypedOptions[reconcile.Request]) { o.RateLimiter = lim })
			t.Cleanup(func() { close(release) })
			rc.send("default/b1")
			rc.waitCalls(bothFailures + 1)
			req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "b1"}}
			want := lim.NumRequeues(req)
			lines := rc.buf.lines()
			if w, e := countLines(lines, "Reconciler returned both"), countLines(lines, msgError); want != bothFailures || w != bothFailures || e != bothFailures {
				t.Fatalf("the real queue counts %d, the log has %d warnings and %d errors; the scenario wants %d of each\n%s",
					want, w, e, bothFailures, strings.Join(lines, "\n"))
			}
			last := -1
			var noErrors []string
			for i, l := range lines {
				if strings.Contains(l, msgError) {
					last = i
				} else {
					noErrors = append(noErrors, l)
				}
			}
			for _, tc := range []struct {
				name    string
				lines   []string
				lastErr string
			}{
				{"whole log", lines, errRefused.Error()},
				{"cut before the last Reconciler error", lines[:last], warningNoError},
				{"warnings alone", noErrors, warningNoError},
			} {
				k := keyDetail(t, readLog(t, time.Now(), tc.lines...), "widget", "default/b1")
				if k.Failures != want || k.LastError == nil || k.LastError.Message != tc.lastErr {
					got := "(none)"
					if k.LastError != nil {
						got = k.LastError.Message
					}
					t.Errorf("%s: log mode: %d failures, last error %q; the real queue: NumRequeues %d, last error %q\n%s",
						tc.name, k.Failures, got, want, tc.lastErr, strings.Join(tc.lines, "\n"))
				}
			}
		})
	}
}
