package explain_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// fleetKeys is n keys scheduled with a RequeueAfter of d, due at due.
func fleetKeys(n int, d time.Duration, due time.Time) []api.Key {
	keys := make([]api.Key, n)
	for i := range keys {
		keys[i] = api.Key{Controller: "widget", Key: fmt.Sprintf("default/w%d", i), State: api.StateScheduled,
			Delay: dur(d), DelaySource: api.SourceRequeueAfter, NextRetryAt: due.Add(time.Duration(i) * time.Millisecond)}
	}
	return keys
}

func TestExplainAntiPatterns(t *testing.T) {
	// backoff is a key 6 failures deep; each case changes what it needs.
	backoff := api.Key{State: api.StateBackoff, Failures: 6, Delay: dur(160 * time.Millisecond),
		DelaySource: api.SourceItemExponential, NextRetryAt: at(100 * time.Millisecond), FirstFailureAt: at(-time.Second)}
	backoffSummary := "Backing off 160ms after 6 consecutive failures: per-item exponential, 5ms·2^5, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 320ms."
	hotLoop := explain.Fleet(fleetKeys(12, 200*time.Millisecond, at(150*time.Millisecond)), explainNow)
	herd := explain.Fleet(fleetKeys(25, time.Minute, at(30*time.Second+100*time.Millisecond)), explainNow)

	permanent := backoff
	permanent.LastError, permanent.SameErrorCount = errAt(`secret "db" not found`, -10*time.Millisecond), 6
	permanent.LastError.Class = api.ClassPermanent
	// unknownLong fails for 20m on an error nothing classifies, the object unchanged since.
	unknownLong := backoff
	unknownLong.LastError, unknownLong.SameErrorCount = errAt("spec.storageClass must be set", -10*time.Millisecond), 17
	unknownLong.LastError.Class = api.ClassUnknown
	unknownLong.FirstFailureAt, unknownLong.LastEventAt, unknownLong.LastReconcileAt = at(-20*time.Minute), at(-20*time.Minute-time.Second), at(-10*time.Millisecond)
	unknownEdited := unknownLong
	unknownEdited.LastEventAt = at(-time.Minute)
	unknownShort := unknownLong
	unknownShort.FirstFailureAt = at(-explain.LongFailure + time.Second)
	// outage is a 503 that has lasted: transient, 17 failures deep on the classic queue.
	outage := api.Key{State: api.StateBackoff, Failures: 17, Delay: dur(327680 * time.Millisecond), DelaySource: api.SourceItemExponential,
		NextRetryAt: at(4*time.Minute + 12*time.Second), FirstFailureAt: at(-20 * time.Minute), SameErrorCount: 17,
		LastError: &api.ErrorRecord{Message: "PUT https://inventory/v1/items/w1: 503 Service Unavailable", At: at(-76 * time.Second), Class: api.ClassTransient}}
	outageShort := outage
	outageShort.SameErrorCount = explain.PermanentAfter - 1
	unobserved := backoff
	unobserved.LastEventAt, unobserved.LastReconcileAt = at(-30*time.Second), at(-30*time.Second)
	scheduled := api.Key{State: api.StateScheduled, Delay: dur(200 * time.Millisecond),
		DelaySource: api.SourceRequeueAfter, NextRetryAt: at(150 * time.Millisecond)}

	tests := []struct {
		name string
		in   explain.Input
		want explain.Diagnosis
	}{{
		name: "a permanent error is called permanent at once",
		in:   explain.Input{Controller: pqController, Key: permanent},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error (permanent): "secret \"db\" not found", the same on the last 6 attempts; failing since 09:59:59.`},
			Findings: []explain.Finding{{Code: explain.FindingPermanent,
				Message: "The error is permanent: retrying will not fix it, and the growing backoff delays the fix. Fix what the error names: the object, or what it depends on (a quota, a missing object it refers to). For the controller's author: record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."}}},
	}, {
		name: "an unknown error failing long with no change to the object looks permanent",
		in:   explain.Input{Controller: pqController, Key: unknownLong},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error: "spec.storageClass must be set", the same on the last 17 attempts (the failure count restarted among them); failing since 09:40:00.`,
				"The last change arrived at 09:39:59 and has been reconciled since (the last reconcile at 09:59:59)."},
			Findings: []explain.Finding{{Code: explain.FindingPermanent,
				Message: "The same error on the last 17 attempts over more than 20m0s, with no change to the object since, looks permanent: retrying alone will not fix it. Fix what the error names: the object, or what it depends on (a quota, a missing object it refers to). For the controller's author: if only a change to the object or to what it depends on (a quota, a missing object it refers to) can fix it, record it as a status condition and an Event and return without an error (or a TerminalError) instead of retrying."}}},
	}, {
		name: "an unknown error is not permanent when the object changed meanwhile",
		in:   explain.Input{Controller: pqController, Key: unknownEdited},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error: "spec.storageClass must be set", the same on the last 17 attempts (the failure count restarted among them); failing since 09:40:00.`,
				"The last change arrived at 09:59:00 and has been reconciled since (the last reconcile at 09:59:59)."}},
	}, {
		name: "an unknown error is not permanent before it has lasted",
		in:   explain.Input{Controller: pqController, Key: unknownShort},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error: "spec.storageClass must be set", the same on the last 17 attempts (the failure count restarted among them); failing since 09:55:01.`,
				"The last change arrived at 09:39:59 and has been reconciled since (the last reconcile at 09:59:59)."}},
	}, {
		name: "a transient error that lasts is an outage the backoff rides out, never permanent",
		in:   explain.Input{Controller: pqController, Key: outage},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits 10m55s.",
			Details: []string{`Last error (transient): "PUT https://inventory/v1/items/w1: 503 Service Unavailable", the same on the last 17 attempts; failing since 09:40:00.`},
			Findings: []explain.Finding{{Code: explain.FindingTransient,
				Message: "The error is transient, the same on the last 17 attempts since 09:40:00 (20m0s): what the controller depends on is down, and the backoff is doing its job — nothing to change in the controller. " +
					"If it keeps failing, the next retries wait 10m55s, then 16m40s each (the cap). Once the dependency is back, `kubectl backoff forget --requeue` retries now instead of after the delay."}}},
	}, {
		name: "the transient advice names the bucket's part in the next retries",
		in:   explain.Input{Controller: classicController, Key: func() api.Key { k := outage; k.Failures = 3; return k }()},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 3 consecutive failures: per-item exponential, 5ms·2^2, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits at least 40ms.",
			Details: []string{`Last error (transient): "PUT https://inventory/v1/items/w1: 503 Service Unavailable", the same on the last 17 attempts (the failure count restarted among them); failing since 09:40:00.`},
			Findings: []explain.Finding{{Code: explain.FindingTransient,
				// 17 attempts with the error, 3 since a reset: the run began
				// before the history says when, so no "since".
				Message: "The error is transient, the same on the last 17 attempts: what the controller depends on is down, and the backoff is doing its job — nothing to change in the controller. " +
					"If it keeps failing, the next retries wait at least 40ms, 80ms, 160ms, … up to 16m40s (the cap). Once the dependency is back, `kubectl backoff forget --requeue` retries now instead of after the delay."}}},
	}, {
		name: "a transient error that has not lasted gets no advice",
		in:   explain.Input{Controller: pqController, Key: outageShort},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits 10m55s.",
			Details: []string{`Last error (transient): "PUT https://inventory/v1/items/w1: 503 Service Unavailable", the same on the last 4 attempts; failing since 09:40:00.`}},
	}, {
		name: "RequeueAfter under 1s across many keys is a hot loop",
		in:   explain.Input{Controller: pqController, Key: scheduled, Fleet: &hotLoop},
		want: explain.Diagnosis{State: api.StateScheduled,
			Summary: "Scheduled: the last reconcile asked to be called again after 200ms (RequeueAfter) — a planned re-check, not a failure. Next re-check at 10:00:00 (in <1s).",
			Findings: []explain.Finding{{Code: explain.FindingHotLoop,
				Message: "12 keys requeue after less than 1s: a hot loop. A short RequeueAfter across many objects is a self-inflicted load test; poll less often or watch instead."}}},
	}, {
		name: "many keys due within the same second are a retry herd",
		in:   explain.Input{Controller: pqController, Key: backoff, Fleet: &herd},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Findings: []explain.Finding{{Code: explain.FindingHerd,
				Message: "25 keys are due within the same second (at 10:00:30): nothing paced them (their delays came from the per-item exponential or RequeueAfter, not a token bucket). They arrive as a herd; " +
					"add jitter: wrap the rate limiter in instrument.JitterLimiter (±25% by default) and set instrument.Options.Jitter for RequeueAfter."}}},
	}, {
		name: "bucket at zero tokens is throttled",
		in:   explain.Input{Controller: controllerWith(exponential, bucketWith(0)), Key: backoff},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 160ms after 6 consecutive failures: per-item exponential, 5ms·2^5, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits at least 320ms.",
			Findings: []explain.Finding{{Code: explain.FindingThrottled,
				Message: "The token bucket is empty, 0.0 of its 100 tokens left: a new retry waits about 100ms. Every retry of this controller is throttled to 10 per second."}}},
	}, {
		name: "bucket in debt reads as empty",
		in:   explain.Input{Key: backoff, Controller: controllerWith(bucketWith(-3.5))},
		want: explain.Diagnosis{State: api.StateBackoff,
			// -3.5 tokens: a failure borrows a 4.5th, repaid in 4.5/10 s.
			Summary: "Backing off 160ms after 6 consecutive failures: per-item exponential. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits about 450ms: the token bucket decides, not the failure count (3.5 tokens owed, refilled at 10 per second).",
			Findings: []explain.Finding{{Code: explain.FindingThrottled,
				Message: "The token bucket is empty, 3.5 tokens owed: a new retry waits about 450ms. Every retry of this controller is throttled to 10 per second."}}},
	}, {
		name: "edit not yet observed while in backoff",
		in: explain.Input{Controller: pqController, Key: unobserved,
			Object: &objstatus.Object{Kind: "Widget", Namespace: "default", Name: "w1", Verdict: objstatus.Verdict{Generation: 7, ObservedGeneration: int64p(6)}}},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{"The last change arrived at 09:59:30 and has been reconciled since (the last reconcile at 09:59:30); your edit (generation 7) is not yet observed: status.observedGeneration is 6."},
			Findings: []explain.Finding{{Code: explain.FindingUnobserved,
				Message: "Your edit (generation 7) is not observed yet: the key is in backoff, and the edit takes effect only when a reconcile succeeds — the next retry is at 10:00:00. Once the cause is fixed, retry now with `kubectl backoff forget --requeue`."}}},
	}, {
		name: "edit observed, object being deleted",
		in: explain.Input{Controller: pqController, Key: backoff,
			Object: &objstatus.Object{Verdict: objstatus.Verdict{Generation: 7, ObservedGeneration: int64p(7)}, DeletionTimestamp: new(at(-time.Minute)),
				Finalizers: []string{"example.com/cleanup", "example.com/dns"}}},
		want: explain.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{"Generation 7 is observed; the object is being deleted since 09:59:00, waiting on finalizers example.com/cleanup, example.com/dns."}},
	}, {
		name: "below every threshold: no findings",
		in: explain.Input{Controller: controllerWith(exponential, bucketWith(1)), Key: func() api.Key {
			k := unknownLong
			k.SameErrorCount = explain.PermanentAfter - 1
			return k
		}(), Fleet: &explain.FleetStats{ShortRequeueAfter: explain.HotLoopKeys - 1, HerdSize: explain.HerdKeys - 1, HerdAt: at(time.Second)}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 160ms after 6 consecutive failures: per-item exponential, 5ms·2^5, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits at least 320ms.",
			Details: []string{`Last error: "spec.storageClass must be set", the same on the last 4 attempts; failing since 09:40:00.`,
				"The last change arrived at 09:39:59 and has been reconciled since (the last reconcile at 09:59:59)."}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = explainNow
			checkDiagnosis(t, explain.Explain(tt.in), tt.want)
		})
	}
}

func TestExplainFindingsOrder(t *testing.T) {
	k := api.Key{State: api.StateBackoff, Failures: 6, SameErrorCount: 6, LastError: &api.ErrorRecord{Message: "x", At: explainNow, Class: api.ClassPermanent}, NextRetryAt: at(time.Second)}
	hot := explain.FleetStats{ShortRequeueAfter: 50, HerdSize: 40, HerdAt: at(time.Second)}
	d := explain.Explain(explain.Input{Key: k, Now: explainNow, Fleet: &hot, Controller: controllerWith(bucketWith(0)),
		Object: &objstatus.Object{Verdict: objstatus.Verdict{Generation: 2, ObservedGeneration: int64p(1)}}})
	var got []string
	for _, f := range d.Findings {
		got = append(got, f.Code)
	}
	want := []string{explain.FindingPermanent, explain.FindingUnobserved, explain.FindingThrottled, explain.FindingHotLoop, explain.FindingHerd}
	if !slices.Equal(got, want) {
		t.Errorf("finding order = %v, want %v", got, want)
	}
	s := d.String()
	if lines := strings.Split(s, "\n"); len(lines) != 1+len(d.Details)+len(want) || lines[0] != d.Summary || !strings.HasPrefix(lines[len(lines)-1], "! 40 keys") {
		t.Errorf("String() = %q: want the summary, the details, then each finding after \"! \"", s)
	}
}

// TestHerdWithABucket: a controller with a token bucket still gets a herd
// of keys whose delays the per-item exponential chose (the bucket reserves
// a token when a retry is scheduled, not when it falls due), and the
// finding says so instead of "nothing paced them" beside the bucket's own
// "throttled to 10 per second".
func TestHerdWithABucket(t *testing.T) {
	herd := explain.Fleet(fleetKeys(25, time.Minute, at(30*time.Second+100*time.Millisecond)), explainNow)
	backoff := api.Key{State: api.StateBackoff, Failures: 6, Delay: dur(160 * time.Millisecond), DelaySource: api.SourceItemExponential,
		NextRetryAt: explainNow}
	d := explain.Explain(explain.Input{Controller: controllerWith(exponential, bucketWith(50)), Key: backoff, Fleet: &herd, Now: explainNow})
	var msg string
	for _, f := range d.Findings {
		if f.Code == explain.FindingHerd {
			msg = f.Message
		}
	}
	want := "25 keys are due within the same second (at 10:00:30): their delays came from the per-item exponential or RequeueAfter, " +
		"and the token bucket (10 per second) spaces retries when they are scheduled, not when they fall due. They arrive as a herd; "
	if !strings.HasPrefix(msg, want) {
		t.Errorf("herd finding %q\nwant it to start %q", msg, want)
	}
}

// TestPermanentAdviceFitsTheReader: a permanent error read from a log
// (a controller the reader likely cannot change) is advised as a fix to
// the object alone; from an endpoint, the same fix first, then the code
// change, labelled as the controller's author's (describe said only
// "return a TerminalError" where top and why said "Fix what the error
// names" for the same key).
func TestPermanentAdviceFitsTheReader(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	const fix = "Fix what the error names: the object, or what it depends on (a quota, a missing object it refers to)."
	for _, tt := range []struct{ source, want string }{
		{"", fix + " For the controller's author: record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."},
		{api.SourceLogs, fix},
	} {
		k := api.Key{Key: "default/w", Source: tt.source, State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(time.Minute),
			LastError: &api.ErrorRecord{Message: `widgets "w" is invalid: spec.size: Required value`, Class: api.ClassPermanent}}
		var msg string
		for _, f := range explain.Explain(explain.Input{Key: k, Now: now}).Findings {
			if f.Code == explain.FindingPermanent {
				msg = f.Message
			}
		}
		if !strings.HasSuffix(msg, tt.want) {
			t.Errorf("source %q: %q\nwant it to end %q", tt.source, msg, tt.want)
		}
	}
}
