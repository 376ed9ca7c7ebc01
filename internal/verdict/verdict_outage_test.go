package verdict

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// An outage on the classic queue with its default limiter: many keys fail
// with a transient error at once, the token bucket (10 qps, burst 100) runs
// dry and chooses the delays. The controller's diagnosis must say so, as
// the queue really behaves, and a key's explanation must name the bucket.
func TestVerdictBucketThrottledOutage(t *testing.T) {
	const keys = 150
	h := startVerdictControllerWith(t, false, nil)
	down := apierrors.NewServiceUnavailable("inventory API is down")
	for i := range keys {
		key := fmt.Sprintf("default/k%03d", i)
		h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{}, down })
		h.send(t, key)
	}
	const throttled = "the token bucket is empty: retries throttled to 10/s"
	deadline := time.Now().Add(verdictWait)
	var line string
	for {
		ds, err := describe.DiagnoseControllers(context.Background(), h.session, h.name)
		if err == nil && len(ds) == 1 {
			line = ds[0].Line()
			if ds[0].Situation == explain.SituationOutage && strings.Contains(line, throttled) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the controller's diagnosis says %q (err %v), want an outage and %q", line, err, throttled)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, with a deadline
	}
	if !strings.Contains(line, "backing off") || !strings.Contains(line, "one transient error") {
		t.Errorf("the controller's diagnosis says %q, want keys backing off on one transient error", line)
	}
	// The keys the bucket delayed are explained by it, not by their failures.
	l, err := h.session.Keys(context.Background(), inspector.KeyQuery{Controller: h.name, Limit: keys})
	if err != nil {
		t.Fatal(err)
	}
	// The one that waits longest: a key whose retry comes due before it is
	// described is queued, and said to be (the queue's clock is real).
	var bucketed string
	var latest time.Time
	for _, k := range l.Items {
		if k.DelaySource == api.SourceBucket && k.NextRetryAt.After(latest) {
			bucketed, latest = k.Key.Key, k.NextRetryAt
		}
	}
	if bucketed == "" {
		t.Fatalf("no key of %d has a delay the bucket chose, with the bucket empty", len(l.Items))
	}
	d, err := describe.Describe(context.Background(), h.session, h.name, bucketed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text := d.Diagnosis.String(); d.Key.Key.DelaySource == api.SourceBucket && !strings.Contains(text, "the controller-wide token bucket (10 qps, burst 100) chose this delay") {
		t.Errorf("%s, whose delay the bucket chose, is explained as:\n%s", bucketed, text)
	}
}
