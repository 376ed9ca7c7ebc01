package logs

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// crossplaneLine is a managed reconciler's debug line as a provider writes
// it (zap console, as in testdata/wild/provider-upjet-aws-816-create.log),
// at t0+at, with the context fields extra after its key.
func crossplaneLine(at time.Duration, msg, extra string) string {
	return crossplaneLineAt(t0.Add(at).Format(time.RFC3339), msg, extra)
}

// crossplaneLineAt is crossplaneLine with its time as written.
func crossplaneLineAt(ts, msg, extra string) string {
	return ts + "\tDEBUG\tprovider-aws\t" + msg +
		"\t{\"controller\": \"managed/bucket.s3.aws.upbound.io/v1beta1, kind=bucket\", \"request\": {\"name\":\"logs\"}" + extra + "}"
}

// TestCrossplaneRequeueAfter reads the poll interval a managed reconciler
// states as the time it ends, in either of the encoders' time formats.
func TestCrossplaneRequeueAfter(t *testing.T) {
	for _, tt := range []struct {
		ts, until string
		at        time.Time
	}{
		// ISO 8601, as the encoders write since 2023.
		{t0.Format(time.RFC3339), `"` + t0.Add(time.Minute).Format(time.RFC3339) + `"`, t0},
		// Epoch floats, as provider-aws-1495.log's time.
		{"1.6642013886487856e+09", "1.6642014486487856e+09", time.Unix(1664201388, 648786000)},
	} {
		line := crossplaneLineAt(tt.ts, "External resource is up to date", `, "requeue-after": `+tt.until)
		at := tt.at
		r, ok := Parse([]byte(line), t0)
		if !ok {
			t.Fatalf("%s: not a record", line)
		}
		if r.What != RequeueAfterLine || r.RequeueAfter != time.Minute || !r.At.Equal(at) {
			t.Errorf("%s:\n got %v after %v at %v, want a RequeueAfterLine after 1m0s at %v", line, r.What, r.RequeueAfter, r.At, at)
		}
		if r.Key() != "logs" || r.Limiter != (Limiter{BaseDelay: time.Second, MaxDelay: time.Minute}) || r.LimiterOf != "Crossplane" {
			t.Errorf("key %q, limiter %+v of %q; want logs, 1s..1m of Crossplane", r.Key(), r.Limiter, r.LimiterOf)
		}
	}
}

// TestCrossplaneStreak drives a store with a managed reconciler's lines:
// its failures (Requeue: true, no error returned) go through its 1s..60s
// limiter, "External resource is up to date" (RequeueAfter: controller-
// runtime forgets the key) ends the streak, and the next failure starts
// again at 1s.
func TestCrossplaneStreak(t *testing.T) {
	cannot := func(at time.Duration) string {
		return crossplaneLine(at, "Cannot observe external resource", `, "error": "cannot get bucket: AccessDenied"`)
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(t0)})
	controller := "managed/bucket.s3.aws.upbound.io/v1beta1, kind=bucket"
	key := func() *api.KeyDetail {
		t.Helper()
		k, err := s.Key(controller, "logs")
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	add := func(line string) {
		t.Helper()
		r, ok := Parse([]byte(line), t0)
		if !ok {
			t.Fatalf("%s: not a record", line)
		}
		s.Add(r)
	}
	check := func(when string, state api.State, failures int, delay time.Duration, src string, next time.Duration) {
		t.Helper()
		k := key()
		if k.State != state || k.Failures != failures || k.Delay.Duration != delay || k.DelaySource != src || !k.NextRetryAt.Equal(t0.Add(next)) {
			t.Errorf("%s: %s, %d failures, delay %v (%s), next retry %v; want %s, %d, %v (%s), %v",
				when, k.State, k.Failures, k.Delay.Duration, k.DelaySource, k.NextRetryAt.Sub(t0), state, failures, delay, src, next)
		}
	}

	// The crossplane limiter: 1s, then 2s; controller-runtime's default
	// would say 5ms, 10ms.
	add(cannot(0))
	check("first failure", api.StateBackoff, 1, time.Second, api.SourceItemExponential, time.Second)
	add(cannot(time.Second))
	check("second failure", api.StateBackoff, 2, 2*time.Second, api.SourceItemExponential, 3*time.Second)
	if k := key(); k.LastError == nil || k.LastError.Message != "cannot get bucket: AccessDenied" {
		t.Errorf("last error %+v", k.LastError)
	}

	add(crossplaneLine(3*time.Second, "External resource is up to date", `, "requeue-after": "`+t0.Add(63*time.Second).Format(time.RFC3339)+`"`))
	check("up to date", api.StateScheduled, 0, time.Minute, api.SourceRequeueAfter, 63*time.Second)

	add(cannot(63 * time.Second))
	check("failure after the poll", api.StateBackoff, 1, time.Second, api.SourceItemExponential, 64*time.Second)
	if k := key(); !k.FirstFailureAt.Equal(t0.Add(63 * time.Second)) {
		t.Errorf("streak starts %v, want the failure after the poll, 63s", k.FirstFailureAt.Sub(t0))
	}

	// A Crossplane debug line shows its successes are logged: the failures
	// are consecutive, not merely logged.
	if st := s.Stats(); !st.Verbose {
		t.Errorf("stats %+v: a log of Crossplane's debug lines shows its successes", st)
	}
	cs := s.Controllers()
	if len(cs.Controllers) != 1 || !strings.Contains(cs.Controllers[0].Limiter.Description, "item-exponential 1s..1m0s (Crossplane's own") {
		t.Errorf("controllers %+v, want one, with Crossplane's limiter", cs.Controllers)
	}
}

// TestKeyAsTheLogPrintsIt: a Crossplane line names a cluster-scoped
// resource "/demo-9kjmv" (reconcile.Request's String); the key is tracked
// as "demo-9kjmv" and found by either spelling.
func TestKeyAsTheLogPrintsIt(t *testing.T) {
	f, err := os.Open("testdata/wild/provider-aws-1495.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := NewStore(Options{})
	if _, _, err := s.Read(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"demo-9kjmv", "/demo-9kjmv"} {
		d, err := s.Key("", key)
		if err != nil {
			t.Errorf("Key(%q): %v", key, err)
			continue
		}
		if d.Key.Key != "demo-9kjmv" {
			t.Errorf("Key(%q) = %q, want demo-9kjmv", key, d.Key.Key)
		}
	}
}
