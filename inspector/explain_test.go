package inspector_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// explainNow is the server time every Explain test reads at.
var explainNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// at is explainNow moved by d.
func at(d time.Duration) time.Time { return explainNow.Add(d) }

func dur(d time.Duration) metav1.Duration { return metav1.Duration{Duration: d} }

func errAt(msg string, d time.Duration) *api.ErrorRecord {
	return &api.ErrorRecord{Message: msg, At: at(d)}
}

// exponential is the priority queue's default limiter: 5ms·2^n, cap 1000s.
var exponential = api.LimiterComponent{Name: api.SourceItemExponential,
	BaseDelay: dur(instrument.DefaultBaseDelay), MaxDelay: dur(instrument.DefaultMaxDelay)}

// controllerWith is a controller whose limiter has these components.
func controllerWith(parts ...api.LimiterComponent) *api.Controller {
	return &api.Controller{Name: "widget", Active: true, Limiter: api.Limiter{Components: parts}}
}

// bucketWith is the classic queue's token bucket holding tokens.
func bucketWith(tokens float64) api.LimiterComponent {
	return api.LimiterComponent{Name: api.SourceBucket, QPS: 10, Burst: 100, Tokens: &tokens}
}

var (
	pqController      = controllerWith(exponential)
	classicController = controllerWith(exponential, bucketWith(57))
)

func int64p(n int64) *int64 { return &n }

// checkDiagnosis compares every part of a diagnosis.
func checkDiagnosis(t *testing.T, got, want inspector.Diagnosis) {
	t.Helper()
	if got.State != want.State {
		t.Errorf("State = %q, want %q", got.State, want.State)
	}
	if got.Summary != want.Summary {
		t.Errorf("Summary:\n got %q\nwant %q", got.Summary, want.Summary)
	}
	if !slices.Equal(got.Details, want.Details) {
		t.Errorf("Details:\n got %q\nwant %q", got.Details, want.Details)
	}
	if !slices.Equal(got.Findings, want.Findings) {
		t.Errorf("Findings:\n got %q\nwant %q", got.Findings, want.Findings)
	}
}

func TestExplainVerdicts(t *testing.T) {
	tests := []struct {
		name string
		in   inspector.ExplainInput
		want inspector.Diagnosis
	}{{
		name: "backoff, item-exponential",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 17, Delay: dur(327680 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(4*time.Minute + 12*time.Second), LastError: errAt("dial tcp 10.0.0.7:443: connect: connection refused", -76*time.Second),
			SameErrorCount: 3, FirstFailureAt: at(-20 * time.Minute), LastEventAt: at(-2 * time.Minute), LastReconcileAt: at(-76 * time.Second)}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits 10m55s.",
			Details: []string{
				`Last error: "dial tcp 10.0.0.7:443: connect: connection refused", the same on the last 3 attempts; failing since 09:40:00.`,
				"The last change arrived at 09:58:00 and has been reconciled since (the last reconcile at 09:58:44).",
			}},
	}, {
		name: "backoff, bucket",
		in: inspector.ExplainInput{Controller: classicController, Key: api.Key{
			State: api.StateBackoff, Failures: 3, Delay: dur(1500 * time.Millisecond), DelaySource: api.SourceBucket,
			NextRetryAt: at(1200 * time.Millisecond), LastError: errAt("etcdserver: request timed out", -300*time.Millisecond),
			SameErrorCount: 1, FirstFailureAt: at(-30 * time.Second)}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 1.5s after 3 consecutive failures: the controller-wide token bucket (10 qps, burst 100) chose this delay, not this key's failures. Next retry at 10:00:01 (in 1s); if it fails again, the one after waits at least 40ms.",
			Details: []string{`Last error: "etcdserver: request timed out"; failing since 09:59:30.`}},
	}, {
		name: "backoff, bucket, limiter unknown",
		in: inspector.ExplainInput{Key: api.Key{
			State: api.StateBackoff, Failures: 1, Delay: dur(200 * time.Millisecond), DelaySource: api.SourceBucket,
			NextRetryAt: at(100 * time.Millisecond)}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 200ms after 1 consecutive failure: the controller-wide token bucket chose this delay, not this key's failures. Next retry at 10:00:00 (in <1s)."},
	}, {
		name: "backoff at the cap",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 20, Delay: dur(1000 * time.Second), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(10 * time.Minute), LastError: errAt("quota exceeded", -6*time.Minute), SameErrorCount: 2, FirstFailureAt: at(-3 * time.Hour)}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 16m40s after 20 consecutive failures: per-item exponential, 5ms·2^19, cap 16m40s (at the cap). Next retry at 10:10:00 (in 10m00s); if it fails again, the one after waits 16m40s.",
			Details: []string{`Last error: "quota exceeded", the same on the last 2 attempts; failing since 07:00:00.`}},
	}, {
		name: "backoff, Requeue: true without error",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 2, Delay: dur(10 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(4 * time.Millisecond), History: []api.Attempt{
				{At: at(-20 * time.Millisecond), Outcome: api.OutcomeRequeue, Delay: dur(5 * time.Millisecond)},
				{At: at(-6 * time.Millisecond), Outcome: api.OutcomeRequeue, Delay: dur(10 * time.Millisecond)},
			}}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 10ms after 2 consecutive failures (the last reconcile returned Requeue: true, not an error): per-item exponential, 5ms·2^1, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 20ms."},
	}, {
		// A probe on the limiter alone records failures without messages:
		// that is not Requeue: true.
		name: "backoff, limiter only, no history",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 2, Delay: dur(10 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(4 * time.Millisecond)}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 10ms after 2 consecutive failures: per-item exponential, 5ms·2^1, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 20ms."},
	}, {
		name: "scheduled, requeue-after",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateScheduled, Delay: dur(30 * time.Second), DelaySource: api.SourceRequeueAfter,
			NextRetryAt: at(20 * time.Second), LastError: errAt("an old error", -time.Hour), SameErrorCount: 1,
			LastEventAt: at(-10 * time.Second), LastReconcileAt: at(-10 * time.Second)}},
		want: inspector.Diagnosis{State: api.StateScheduled,
			Summary: "Scheduled: the last reconcile asked to be called again after 30s (RequeueAfter) — a planned re-check, not a failure. Next re-check at 10:00:20 (in 20s).",
			Details: []string{"The last change arrived at 09:59:50 and has been reconciled since (the last reconcile at 09:59:50)."}},
	}, {
		name: "scheduled by spread",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateScheduled, Delay: dur(45 * time.Second), DelaySource: api.SourceSpread, NextRetryAt: at(30 * time.Second)}},
		want: inspector.Diagnosis{State: api.StateScheduled,
			Summary: "Scheduled: a bulk retry reset its backoff and releases it 45s after the request, so that the keys do not all retry at once. Next retry at 10:00:30 (in 30s)."},
	}, {
		name: "queued after a watch event",
		in: inspector.ExplainInput{Key: api.Key{
			State: api.StateQueued, QueuedAt: at(-2 * time.Second), LastEventAt: at(-2 * time.Second), LastReconcileAt: at(-5 * time.Minute)}},
		want: inspector.Diagnosis{State: api.StateQueued,
			Summary: "Queued since 09:59:58 after a watch event: ready, waiting for a free worker.",
			Details: []string{"The last change arrived at 09:59:58 and has not been reconciled yet."}},
	}, {
		name: "queued because its retry came due",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateQueued, Failures: 5, Delay: dur(80 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(-1500 * time.Millisecond), LastError: errAt("boom", -1580*time.Millisecond), SameErrorCount: 2, FirstFailureAt: at(-time.Minute)}},
		want: inspector.Diagnosis{State: api.StateQueued,
			Summary: "Queued: its retry came due at 09:59:58 (1.5s ago); waiting for a free worker.",
			Details: []string{`Last error: "boom", the same on the last 2 attempts.`}},
	}, {
		name: "running, short",
		in:   inspector.ExplainInput{Key: api.Key{State: api.StateRunning, StartedAt: at(-2 * time.Second)}},
		want: inspector.Diagnosis{State: api.StateRunning, Summary: "Reconciling since 09:59:58 (2.0s so far)."},
	}, {
		name: "running, long",
		in: inspector.ExplainInput{Key: api.Key{State: api.StateRunning, StartedAt: at(-45 * time.Second),
			LastError: errAt("context deadline exceeded", -2*time.Minute), SameErrorCount: 1}},
		want: inspector.Diagnosis{State: api.StateRunning, Summary: "Reconciling since 09:59:15 (45s so far).",
			Details: []string{
				"A reconcile this long holds a worker: other keys wait. Return RequeueAfter instead of waiting inside Reconcile.",
				`Last error: "context deadline exceeded".`,
			}},
	}, {
		name: "failed: terminal, counter kept",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateFailed, Failures: 3, LastError: errAt("spec.size: must be positive", -2*time.Minute),
			SameErrorCount: 1, LastReconcileAt: at(-2 * time.Minute)}},
		want: inspector.Diagnosis{State: api.StateFailed,
			Summary: "Failed with a terminal error at 09:58:00; not retried. Only a change to the object (a watch event) reconciles it again.",
			Details: []string{
				"The backoff counter is kept at 3: the next failure continues from there.",
				`Last error: "spec.size: must be positive".`,
			}},
	}, {
		name: "idle",
		in: inspector.ExplainInput{Controller: pqController, Key: api.Key{
			State: api.StateIdle, LastSuccessAt: at(-5 * time.Minute), LastEventAt: at(-5*time.Minute - time.Second),
			LastReconcileAt: at(-5 * time.Minute), LastError: errAt("fixed since", -time.Hour)}},
		want: inspector.Diagnosis{State: api.StateIdle,
			Summary: "Converged: the last reconcile succeeded at 09:55:00; the backoff is forgotten.",
			Details: []string{"The last change arrived at 09:54:59 and has been reconciled since (the last reconcile at 09:55:00)."}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = explainNow
			tt.in.Key.Controller, tt.in.Key.Key = "widget", "default/w1"
			checkDiagnosis(t, inspector.Explain(tt.in), tt.want)
		})
	}
}

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
	hotLoop := inspector.Fleet(fleetKeys(12, 200*time.Millisecond, at(150*time.Millisecond)), explainNow)
	herd := inspector.Fleet(fleetKeys(25, time.Minute, at(30*time.Second+100*time.Millisecond)), explainNow)

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
	unknownShort.FirstFailureAt = at(-inspector.LongFailure + time.Second)
	// outage is a 503 that has lasted: transient, 17 failures deep on the classic queue.
	outage := api.Key{State: api.StateBackoff, Failures: 17, Delay: dur(327680 * time.Millisecond), DelaySource: api.SourceItemExponential,
		NextRetryAt: at(4*time.Minute + 12*time.Second), FirstFailureAt: at(-20 * time.Minute), SameErrorCount: 17,
		LastError: &api.ErrorRecord{Message: "PUT https://inventory/v1/items/w1: 503 Service Unavailable", At: at(-76 * time.Second), Class: api.ClassTransient}}
	outageShort := outage
	outageShort.SameErrorCount = inspector.PermanentAfter - 1
	unobserved := backoff
	unobserved.LastEventAt, unobserved.LastReconcileAt = at(-30*time.Second), at(-30*time.Second)
	scheduled := api.Key{State: api.StateScheduled, Delay: dur(200 * time.Millisecond),
		DelaySource: api.SourceRequeueAfter, NextRetryAt: at(150 * time.Millisecond)}

	tests := []struct {
		name string
		in   inspector.ExplainInput
		want inspector.Diagnosis
	}{{
		name: "a permanent error is called permanent at once",
		in:   inspector.ExplainInput{Controller: pqController, Key: permanent},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error (permanent): "secret \"db\" not found", the same on the last 6 attempts; failing since 09:59:59.`},
			Findings: []inspector.Finding{{Code: inspector.FindingPermanent,
				Message: "The error is permanent: retrying will not fix it, only a change to the object will, and the growing backoff delays that fix. Record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."}}},
	}, {
		name: "an unknown error failing long with no change to the object looks permanent",
		in:   inspector.ExplainInput{Controller: pqController, Key: unknownLong},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error (unknown): "spec.storageClass must be set", the same on the last 17 attempts (the failure count restarted among them); failing since 09:40:00.`,
				"The last change arrived at 09:39:59 and has been reconciled since (the last reconcile at 09:59:59)."},
			Findings: []inspector.Finding{{Code: inspector.FindingPermanent,
				Message: "The same error on the last 17 attempts over 20m00s, with no change to the object since, looks permanent: if only a change to the object can fix it, record it as a status condition and an Event and return without an error (or a TerminalError) instead of retrying."}}},
	}, {
		name: "an unknown error is not permanent when the object changed meanwhile",
		in:   inspector.ExplainInput{Controller: pqController, Key: unknownEdited},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error (unknown): "spec.storageClass must be set", the same on the last 17 attempts (the failure count restarted among them); failing since 09:40:00.`,
				"The last change arrived at 09:59:00 and has been reconciled since (the last reconcile at 09:59:59)."}},
	}, {
		name: "an unknown error is not permanent before it has lasted",
		in:   inspector.ExplainInput{Controller: pqController, Key: unknownShort},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{`Last error (unknown): "spec.storageClass must be set", the same on the last 17 attempts (the failure count restarted among them); failing since 09:55:01.`,
				"The last change arrived at 09:39:59 and has been reconciled since (the last reconcile at 09:59:59)."}},
	}, {
		name: "a transient error that lasts is an outage the backoff rides out, never permanent",
		in:   inspector.ExplainInput{Controller: pqController, Key: outage},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits 10m55s.",
			Details: []string{`Last error (transient): "PUT https://inventory/v1/items/w1: 503 Service Unavailable", the same on the last 17 attempts; failing since 09:40:00.`},
			Findings: []inspector.Finding{{Code: inspector.FindingTransient,
				Message: "The error is transient, the same on the last 17 attempts since 09:40:00 (20m00s): what the controller depends on is down, and the backoff is doing its job — nothing to change in the controller. " +
					"If it keeps failing, the next retries wait 10m55s, then 16m40s each (the cap). Once the dependency is back, `kubectl backoff forget --requeue` retries now instead of after the delay."}}},
	}, {
		name: "the transient advice names the bucket's part in the next retries",
		in:   inspector.ExplainInput{Controller: classicController, Key: func() api.Key { k := outage; k.Failures = 3; return k }()},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 3 consecutive failures: per-item exponential, 5ms·2^2, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits at least 40ms.",
			Details: []string{`Last error (transient): "PUT https://inventory/v1/items/w1: 503 Service Unavailable", the same on the last 17 attempts (the failure count restarted among them); failing since 09:40:00.`},
			Findings: []inspector.Finding{{Code: inspector.FindingTransient,
				// 17 attempts with the error, 3 since a reset: the run began
				// before the history says when, so no "since".
				Message: "The error is transient, the same on the last 17 attempts: what the controller depends on is down, and the backoff is doing its job — nothing to change in the controller. " +
					"If it keeps failing, the next retries wait at least 40ms, 80ms, 160ms, … up to 16m40s (the cap). Once the dependency is back, `kubectl backoff forget --requeue` retries now instead of after the delay."}}},
	}, {
		name: "a transient error that has not lasted gets no advice",
		in:   inspector.ExplainInput{Controller: pqController, Key: outageShort},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits 10m55s.",
			Details: []string{`Last error (transient): "PUT https://inventory/v1/items/w1: 503 Service Unavailable", the same on the last 4 attempts; failing since 09:40:00.`}},
	}, {
		name: "RequeueAfter under 1s across many keys is a hot loop",
		in:   inspector.ExplainInput{Controller: pqController, Key: scheduled, Fleet: &hotLoop},
		want: inspector.Diagnosis{State: api.StateScheduled,
			Summary: "Scheduled: the last reconcile asked to be called again after 200ms (RequeueAfter) — a planned re-check, not a failure. Next re-check at 10:00:00 (in <1s).",
			Findings: []inspector.Finding{{Code: inspector.FindingHotLoop,
				Message: "12 keys requeue after less than 1s: a hot loop. A short RequeueAfter across many objects is a self-inflicted load test; poll less often or watch instead."}}},
	}, {
		name: "many keys due within the same second are a retry herd",
		in:   inspector.ExplainInput{Controller: pqController, Key: backoff, Fleet: &herd},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Findings: []inspector.Finding{{Code: inspector.FindingHerd,
				Message: "25 keys are due within the same second (at 10:00:30) and nothing paced them (their delays came from the per-item exponential or RequeueAfter, not a token bucket): they arrive as a herd; " +
					"add jitter: wrap the rate limiter in instrument.JitterLimiter (±25% by default) and set instrument.Options.Jitter for RequeueAfter."}}},
	}, {
		name: "bucket at zero tokens is throttled",
		in:   inspector.ExplainInput{Controller: controllerWith(exponential, bucketWith(0)), Key: backoff},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 160ms after 6 consecutive failures: per-item exponential, 5ms·2^5, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits at least 320ms.",
			Findings: []inspector.Finding{{Code: inspector.FindingThrottled,
				Message: "The token bucket is empty, 0.0 of its 100 tokens left: every retry of this controller is throttled to 10 per second."}}},
	}, {
		name: "bucket in debt reads as empty",
		in:   inspector.ExplainInput{Key: backoff, Controller: controllerWith(bucketWith(-3.5))},
		want: inspector.Diagnosis{State: api.StateBackoff,
			// -3.5 tokens: a failure borrows a 4.5th, repaid in 4.5/10 s.
			Summary: "Backing off 160ms after 6 consecutive failures: per-item exponential. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits about 450ms: the token bucket decides, not the failure count (3 retries queued on it, refilled at 10 per second).",
			Findings: []inspector.Finding{{Code: inspector.FindingThrottled,
				Message: "The token bucket is empty, 3 retries queued on it: every retry of this controller is throttled to 10 per second."}}},
	}, {
		name: "edit not yet observed while in backoff",
		in: inspector.ExplainInput{Controller: pqController, Key: unobserved,
			Object: &inspector.ObjectStatus{Kind: "Widget", Namespace: "default", Name: "w1", Generation: 7, ObservedGeneration: int64p(6)}},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{"The last change arrived at 09:59:30 and has been reconciled since (the last reconcile at 09:59:30); your edit (generation 7) is not yet observed: status.observedGeneration is 6."},
			Findings: []inspector.Finding{{Code: inspector.FindingUnobserved,
				Message: "Your edit (generation 7) is not observed yet: the key is in backoff, and the edit takes effect only when a reconcile succeeds — the next retry is at 10:00:00. Once the cause is fixed, retry now with `kubectl backoff forget --requeue`."}}},
	}, {
		name: "edit observed, object being deleted",
		in: inspector.ExplainInput{Controller: pqController, Key: backoff,
			Object: &inspector.ObjectStatus{Generation: 7, ObservedGeneration: int64p(7), DeletionTimestamp: new(at(-time.Minute)),
				Finalizers: []string{"example.com/cleanup", "example.com/dns"}}},
		want: inspector.Diagnosis{State: api.StateBackoff, Summary: backoffSummary,
			Details: []string{"Generation 7 is observed; the object is being deleted since 09:59:00, waiting on finalizers example.com/cleanup, example.com/dns."}},
	}, {
		name: "below every threshold: no findings",
		in: inspector.ExplainInput{Controller: controllerWith(exponential, bucketWith(1)), Key: func() api.Key {
			k := unknownLong
			k.SameErrorCount = inspector.PermanentAfter - 1
			return k
		}(), Fleet: &inspector.FleetStats{ShortRequeueAfter: inspector.HotLoopKeys - 1, HerdSize: inspector.HerdKeys - 1, HerdAt: at(time.Second)}},
		want: inspector.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 160ms after 6 consecutive failures: per-item exponential, 5ms·2^5, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits at least 320ms.",
			Details: []string{`Last error (unknown): "spec.storageClass must be set", the same on the last 4 attempts; failing since 09:40:00.`,
				"The last change arrived at 09:39:59 and has been reconciled since (the last reconcile at 09:59:59)."}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = explainNow
			checkDiagnosis(t, inspector.Explain(tt.in), tt.want)
		})
	}
}

func TestExplainFindingsOrder(t *testing.T) {
	k := api.Key{State: api.StateBackoff, Failures: 6, SameErrorCount: 6, LastError: &api.ErrorRecord{Message: "x", At: explainNow, Class: api.ClassPermanent}, NextRetryAt: at(time.Second)}
	hot := inspector.FleetStats{ShortRequeueAfter: 50, HerdSize: 40, HerdAt: at(time.Second)}
	d := inspector.Explain(inspector.ExplainInput{Key: k, Now: explainNow, Fleet: &hot, Controller: controllerWith(bucketWith(0)),
		Object: &inspector.ObjectStatus{Generation: 2, ObservedGeneration: int64p(1)}})
	var got []string
	for _, f := range d.Findings {
		got = append(got, f.Code)
	}
	want := []string{inspector.FindingPermanent, inspector.FindingUnobserved, inspector.FindingThrottled, inspector.FindingHotLoop, inspector.FindingHerd}
	if !slices.Equal(got, want) {
		t.Errorf("finding order = %v, want %v", got, want)
	}
	s := d.String()
	if lines := strings.Split(s, "\n"); len(lines) != 1+len(d.Details)+len(want) || lines[0] != d.Summary || !strings.HasPrefix(lines[len(lines)-1], "! 40 keys") {
		t.Errorf("String() = %q: want the summary, the details, then each finding after \"! \"", s)
	}
}

func TestFleet(t *testing.T) {
	key := func(src string, d, due time.Duration) api.Key {
		return api.Key{DelaySource: src, Delay: dur(d), NextRetryAt: at(due)}
	}
	exp := func(due time.Duration) api.Key { return key(api.SourceItemExponential, time.Second, due) }
	tests := []struct {
		name string
		keys []api.Key
		want inspector.FleetStats
	}{
		{name: "none", want: inspector.FleetStats{}},
		{name: "short RequeueAfter counts, a second or other sources do not", keys: []api.Key{
			key(api.SourceRequeueAfter, 999*time.Millisecond, -time.Second), // counted even once due
			key(api.SourceRequeueAfter, time.Second, 2*time.Second),
			key(api.SourceItemExponential, 5*time.Millisecond, 3*time.Second),
			key(api.SourceRequeueAfter, 0, 0),
		}, want: inspector.FleetStats{ShortRequeueAfter: 1, HerdSize: 1, HerdAt: at(2 * time.Second)}},
		{name: "largest second wins, past retries left out", keys: []api.Key{
			exp(-500 * time.Millisecond), exp(-400 * time.Millisecond), exp(-300 * time.Millisecond), exp(0),
			exp(2100 * time.Millisecond), exp(2900 * time.Millisecond),
			exp(5000 * time.Millisecond), exp(5001 * time.Millisecond), exp(5999 * time.Millisecond),
			{}, // no retry
		}, want: inspector.FleetStats{HerdSize: 3, HerdAt: at(5 * time.Second)}},
		{name: "a tie goes to the earlier second", keys: []api.Key{
			exp(9 * time.Second), exp(9 * time.Second), exp(4 * time.Second), exp(4 * time.Second),
		}, want: inspector.FleetStats{HerdSize: 2, HerdAt: at(4 * time.Second)}},
		{name: "keys a bucket or a spread paced are no herd", keys: []api.Key{
			key(api.SourceBucket, time.Second, 3*time.Second), key(api.SourceBucket, time.Second, 3*time.Second),
			key(api.SourceSpread, time.Second, 3*time.Second), key(api.SourceLimiter, time.Second, 3*time.Second),
			key(api.SourceRequeueAfter, 30*time.Second, 7*time.Second),
		}, want: inspector.FleetStats{HerdSize: 1, HerdAt: at(7 * time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := inspector.Fleet(tt.keys, explainNow)
			if got.ShortRequeueAfter != tt.want.ShortRequeueAfter || got.HerdSize != tt.want.HerdSize || !got.HerdAt.Equal(tt.want.HerdAt) {
				t.Errorf("Fleet = %+v, want %+v", got, tt.want)
			}
		})
	}
}
