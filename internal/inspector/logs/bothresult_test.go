package logs

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
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
// before its "Reconciler error"; and the warnings alone when every
// "Reconciler error" is gone. The warning says no error: with inner, the
// reconciler logs its own "failed to sync KEY" through the request's
// logger first (326's shape), and that line's error is the warning's;
// without, the error is said not to be in the log. Without the result
// (no warning), the inner cause and "Reconciler error" are one attempt too.
func TestBothResultAndErrorWarning(t *testing.T) {
	for _, mode := range []struct {
		name        string
		inner, both bool
	}{{"both", false, true}, {"both/inner-cause", true, true}, {"error-only/inner-cause", true, false}} {
		for _, f := range []loggerFormat{formats[0], formats[3], formats[4]} { // zap JSON, zap console, klog text
			t.Run(f.name+"/"+mode.name, func(t *testing.T) {
				t.Parallel()
				bothResultAndError(t, f, mode.inner, mode.both)
			})
		}
	}
}

func bothResultAndError(t *testing.T, f loggerFormat, inner, both bool) {
	release := make(chan struct{})
	lim := &recordingLimiter{last: map[reconcile.Request]time.Duration{},
		TypedRateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)}
	var rc *realController
	rc = startRealWith(t, f, false, false, true, nil, func(o *controller.TypedOptions[reconcile.Request]) {
		o.RateLimiter = lim
		o.Reconciler = reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			rc.mu.Lock()
			rc.calls[req.String()]++
			n := rc.calls[req.String()]
			rc.mu.Unlock()
			if n > bothFailures {
				<-release
				return reconcile.Result{}, nil
			}
			if inner {
				logf.FromContext(ctx).Error(errRefused, "failed to sync "+req.String())
			}
			if !both {
				return reconcile.Result{}, errRefused
			}
			return reconcile.Result{RequeueAfter: time.Minute}, errRefused
		})
	})
	t.Cleanup(func() { close(release) })
	rc.send("default/b1")
	rc.waitCalls(bothFailures + 1)
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "b1"}}
	want := lim.NumRequeues(req)
	lines := rc.buf.lines()
	wantWarnings := bothFailures
	if !both {
		wantWarnings = 0
	}
	if w, e := countLines(lines, "Reconciler returned both"), countLines(lines, msgError); want != bothFailures || w != wantWarnings || e != bothFailures {
		t.Fatalf("the real queue counts %d, the log has %d warnings and %d errors; the scenario wants %d, %d and %d\n%s",
			want, w, e, bothFailures, wantWarnings, bothFailures, strings.Join(lines, "\n"))
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
	cutErr := warningNoError
	if inner {
		cutErr = errRefused.Error()
	}
	cases := []struct {
		name    string
		lines   []string
		lastErr string
	}{
		{"whole log", lines, errRefused.Error()},
		{"cut before the last Reconciler error", lines[:last], cutErr},
		{"warnings alone", noErrors, cutErr},
	}
	if !both { // no warning: what is cut is the inner causes' alone
		cases = cases[:1]
	}
	for _, tc := range cases {
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
}

// TestBothResultWarningCut: batch 4's 326 (aibrix, klogr) is the reconciler's
// own E line and the warning, the "Reconciler error" after them cut by the
// issue's window: one failure of default/llm-xpyd-roleset-fkh4v under
// roleset-controller. The E line ("Reconciling RoleSet KEY finalize error
// ERR") is the reconciler's own error line for the key, just before the
// warning: its error is the attempt's (innercause.go).
func TestBothResultWarningCut(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch4/326-aibrix-klogr-inner-error-and-both-result-and-error-warning.log")
	if err != nil {
		t.Fatal(err)
	}
	s := readLog(t, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), strings.Split(strings.TrimSpace(string(raw)), "\n")...)
	k := keyDetail(t, s, "roleset-controller", "default/llm-xpyd-roleset-fkh4v")
	const want = `pods "llm-xpyd-roleset-fkh4v-decode-7c496cff6f-0" not found`
	if k.Failures != 1 || k.LastError == nil || k.LastError.Message != want {
		t.Errorf("326: %d failures, last error %+v; want 1, %q", k.Failures, k.LastError, want)
	}
}
