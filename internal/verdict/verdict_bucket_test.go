package verdict

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
)

// bucketForecastRe reads the forecast a diagnosis gives when the token
// bucket decides: "waits about 3.0s: the token bucket decides".
var bucketForecastRe = regexp.MustCompile(`waits about (\S+): the token bucket decides`)

// The bucket forecast against the real classic queue: an outage deep enough
// that the token bucket chooses every delay. The forecast for a key's next
// failure, read well before it, must be what the queue then waits, and it
// must stay so after a forget (which resets the per-item count, not the
// bucket). The old forecast ("the bucket's tokens at the retry") shrank as
// the retry came near and, after a forget, said "at least 5ms" (issue #23).
//
// The limiter is the classic default's shape, max(exponential 5ms..1000s,
// bucket), with the bucket at 50 qps so that a cycle of 150 keys takes 3s
// rather than the default's 15s.
func TestVerdictBucketForecast(t *testing.T) {
	const keys, qps = 150, 50
	// instrument's ControllerLimiter is client-go's max-of built from its
	// parts (the same rate.Limiter reservations) that also says which part
	// chose a delay; the probe's default on the classic queue.
	h := startVerdictControllerWith(t, false, instrument.NewControllerLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second, qps, 100))
	down := apierrors.NewServiceUnavailable("inventory API is down")
	for i := range keys {
		key := fmt.Sprintf("default/k%03d", i)
		h.script(key, func(int) (reconcile.Result, error) { return reconcile.Result{}, down })
		h.send(t, key)
	}
	const key = "default/k075"
	// Settled: the bucket chose the key's delay and is deep in debt (most of
	// the keys queued on it), so its forecast is the steady one.
	forecast := func(text string) time.Duration {
		m := bucketForecastRe.FindStringSubmatch(text)
		if m == nil {
			return 0
		}
		d, err := time.ParseDuration(m[1])
		if err != nil {
			t.Fatalf("forecast %q: %v", m[1], err)
		}
		return d
	}
	var said time.Duration
	var before api.Key
	deadline := time.Now().Add(3 * verdictWait)
	for {
		d, err := describe.Describe(context.Background(), h.session, h.name, key, nil)
		if err == nil {
			before = d.Key.Key
			said = forecast(d.Diagnosis.Summary)
			// 100 of 150 keys in debt: 2s at 50 qps.
			if before.DelaySource == api.SourceBucket && said >= 2*time.Second && before.NextRetryAt.Sub(d.Key.ServerTime) > said/2 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never settled on a bucket forecast; last: %+v", key, before)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, with a deadline
	}
	near := func(got, want time.Duration) bool {
		// The forecast is rounded to 100ms and the debt moves by a key or
		// two while workers pick retries up: 10%.
		diff := got - want
		return diff < want/10 && -diff < want/10
	}
	h.waitKey(t, key, func(k api.Key) bool { return k.Failures > before.Failures && k.State == api.StateBackoff })
	after, err := h.session.Key(context.Background(), h.name, key)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Key.Delay.Duration; !near(got, said) {
		t.Errorf("the forecast %v before its retry said the next failure waits about %v; it waited %v (%s)", time.Until(before.NextRetryAt), said, got, after.Key.DelaySource)
	}

	// A forget resets the count, not the bucket: the next failure still waits the bucket's time.
	if _, err := h.session.Forget(context.Background(), api.ForgetRequest{Controller: h.name, Keys: []string{key}}); err != nil {
		t.Fatal(err)
	}
	d, err := describe.Describe(context.Background(), h.session, h.name, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Key.Failures != 0 || !strings.Contains(d.Diagnosis.Summary, "the next failure waits about") {
		t.Fatalf("after a forget, describe says %q (failures %d), want the next failure's wait from the bucket", d.Diagnosis.Summary, d.Key.Failures)
	}
	said = forecast(d.Diagnosis.Summary)
	total := d.Key.TotalFailures
	h.waitKey(t, key, func(k api.Key) bool { return k.TotalFailures > total && k.State == api.StateBackoff })
	after, err = h.session.Key(context.Background(), h.name, key)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Key.Delay.Duration; !near(got, said) {
		t.Errorf("after a forget the forecast said the next failure waits about %v; it waited %v (%s)", said, got, after.Key.DelaySource)
	}
}
