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

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
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
//
// The forecast holds while the single worker keeps up, and a loaded machine
// does not always let it: the bucket's reservations are spaced by the
// count of tokens taken, not by time, so a retry the worker runs L late
// waits L less (its ready time is the same), and a forecast read while the
// worker is behind by B says B less (the keys not yet retried have not
// borrowed again). The test measures both, L from the endpoint's own
// failure times and B as a bound from the soonest retry just before the
// read, and asserts the forecast within them: what the queue waited plus
// the key's lateness, less at most the backlog.
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
	var said, behind time.Duration
	var before api.Key
	deadline := time.Now().Add(3 * verdictWait)
	for {
		overdue, at := h.overdue()
		d, err := describe.Describe(context.Background(), h.session, h.name, key, nil)
		behind = overdue + time.Since(at)
		if err == nil {
			before = d.Key.Key
			said = forecast(d.Diagnosis.Summary)
			// 100 of 150 keys in debt: 2s at 50 qps.
			// A read while the worker is behind its retries is not a
			// settled one: its forecast is short by the backlog.
			if before.DelaySource == api.SourceBucket && said >= 2*time.Second && before.NextRetryAt.Sub(d.Key.ServerTime) > said/2 && behind < said/4 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never settled on a bucket forecast; last: %+v", key, before)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, with a deadline
	}
	// check compares the forecast said, read with the worker at most
	// behind late, with the key's next failure after the retry due at due.
	check := func(when string, said, behind time.Duration, due time.Time, after api.Key) {
		t.Helper()
		// The failure is the key's first attempt from due on, found in its
		// history: a test too slow to see it before the next one still
		// checks it. Its time is when the limiter was asked, as the
		// reconcile ended.
		var row *api.Attempt
		for i := range after.History {
			if a := &after.History[i]; a.Outcome == api.OutcomeError && !a.At.Before(due.Add(-time.Millisecond)) {
				row = a
				break
			}
		}
		if row == nil {
			t.Fatalf("%s no failure from %s on in the key's history: %+v", when, due.Format("15:04:05.000"), after.History)
		}
		late := max(0, row.At.Add(row.Duration.Duration).Sub(due))
		got := row.Delay.Duration
		// The forecast is rounded to 100ms and the debt moves by a key or
		// two while the worker picks retries up: 10%.
		tol := said / 10
		if lo, hi := got+late-behind-tol, got+late+tol; said < lo || said > hi {
			t.Errorf("%s the forecast said the next failure waits about %v; it waited %v (%s) after running %v late, the worker at most %v behind at the read: want the forecast within [%v, %v]",
				when, said, got, after.DelaySource, late, behind, lo, hi)
		}
	}
	h.waitKey(t, key, func(k api.Key) bool { return k.Failures > before.Failures && k.State == api.StateBackoff })
	after, err := h.session.Key(context.Background(), h.name, key)
	if err != nil {
		t.Fatal(err)
	}
	check("read well before its retry,", said, behind, before.NextRetryAt, after.Key)

	// A forget resets the count, not the bucket: the next failure still waits the bucket's time.
	var d *describe.Description
	for {
		if _, err := h.session.Forget(context.Background(), api.ForgetRequest{Controller: h.name, Keys: []string{key}}); err != nil {
			t.Fatal(err)
		}
		overdue, at := h.overdue()
		d, err = describe.Describe(context.Background(), h.session, h.name, key, nil)
		behind = overdue + time.Since(at)
		if err != nil {
			t.Fatal(err)
		}
		// A retry between the forget and the read (a test stalled for
		// the key's whole wait) counted a failure again: forget again.
		if d.Key.Failures == 0 || d.Key.LastReset == nil || d.Key.LastError == nil || !d.Key.LastError.At.After(d.Key.LastReset.At) || time.Now().After(deadline) {
			break
		}
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
	check("after a forget", said, behind, d.Key.NextRetryAt, after.Key)
}

// overdue is how late the controller's soonest retry is at the time at:
// how far behind its retries the worker is. A backlog grows no faster than
// the clock, so at a read ending later it is at most overdue plus the time
// since at.
func (h *verdictHarness) overdue() (time.Duration, time.Time) {
	l, err := h.session.Keys(context.Background(), inspector.KeyQuery{Controller: h.name, Sort: api.SortNext, Limit: api.MaxLimit})
	if err != nil {
		return time.Hour, time.Now() // unknown: no bound
	}
	soonest := l.ServerTime
	for _, it := range l.Items {
		if k := it.Key; !k.NextRetryAt.IsZero() && k.NextRetryAt.Before(soonest) {
			soonest = k.NextRetryAt
		}
	}
	return l.ServerTime.Sub(soonest), l.ServerTime
}
