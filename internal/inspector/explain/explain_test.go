package explain_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
func checkDiagnosis(t *testing.T, got, want explain.Diagnosis) {
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
	if !slices.EqualFunc(got.Findings, want.Findings, func(a, b explain.Finding) bool { return a.String() == b.String() }) {
		t.Errorf("Findings:\n got %q\nwant %q", got.Findings, want.Findings)
	}
}

func TestExplainVerdicts(t *testing.T) {
	tests := []struct {
		name string
		in   explain.Input
		want explain.Diagnosis
	}{{
		name: "backoff, item-exponential",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 17, Delay: dur(327680 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(4*time.Minute + 12*time.Second), LastError: errAt("dial tcp 10.0.0.7:443: connect: connection refused", -76*time.Second),
			SameErrorCount: 3, FirstFailureAt: at(-20 * time.Minute), LastEventAt: at(-2 * time.Minute), LastReconcileAt: at(-76 * time.Second)}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 5m28s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s. Next retry at 10:04:12 (in 4m12s); if it fails again, the one after waits 10m55s.",
			Details: []string{
				`Last error: "dial tcp 10.0.0.7:443: connect: connection refused", the same on the last 3 attempts; failing since 09:40:00.`,
				"The last change arrived at 09:58:00 and has been reconciled since (the last reconcile at 09:58:44).",
			}},
	}, {
		name: "backoff, bucket",
		in: explain.Input{Controller: classicController, Key: api.Key{
			State: api.StateBackoff, Failures: 3, Delay: dur(1500 * time.Millisecond), DelaySource: api.SourceBucket,
			NextRetryAt: at(1200 * time.Millisecond), LastError: errAt("etcdserver: request timed out", -300*time.Millisecond),
			SameErrorCount: 1, FirstFailureAt: at(-30 * time.Second)}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 1.5s after 3 consecutive failures: the controller-wide token bucket (10 qps, burst 100) chose this delay, not this key's failures. Next retry at 10:00:01 (in 1s); if it fails again, the one after waits at least 40ms.",
			Details: []string{`Last error: "etcdserver: request timed out"; failing since 09:59:30.`}},
	}, {
		name: "backoff, bucket, limiter unknown",
		in: explain.Input{Key: api.Key{
			State: api.StateBackoff, Failures: 1, Delay: dur(200 * time.Millisecond), DelaySource: api.SourceBucket,
			NextRetryAt: at(100 * time.Millisecond)}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 200ms after 1 consecutive failure: the controller-wide token bucket chose this delay, not this key's failures. Next retry at 10:00:00 (in <1s)."},
	}, {
		name: "backoff at the cap",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 20, Delay: dur(1000 * time.Second), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(10 * time.Minute), LastError: errAt("quota exceeded", -6*time.Minute), SameErrorCount: 2, FirstFailureAt: at(-3 * time.Hour)}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 16m40s after 20 consecutive failures: per-item exponential, 5ms·2^19, cap 16m40s (at the cap). Next retry at 10:10:00 (in 10m0s); if it fails again, the one after waits 16m40s.",
			Details: []string{`Last error: "quota exceeded", the same on the last 2 attempts; failing since 07:00:00.`}},
	}, {
		name: "backoff, Requeue: true without error",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 2, Delay: dur(10 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(4 * time.Millisecond), History: []api.Attempt{
				{At: at(-20 * time.Millisecond), Outcome: api.OutcomeRequeue, Delay: dur(5 * time.Millisecond)},
				{At: at(-6 * time.Millisecond), Outcome: api.OutcomeRequeue, Delay: dur(10 * time.Millisecond)},
			}}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 10ms after 2 consecutive failures (the last reconcile returned Requeue: true, not an error): per-item exponential, 5ms·2^1, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 20ms."},
	}, {
		// A probe on the limiter alone records failures without messages:
		// that is not Requeue: true.
		name: "backoff, limiter only, no history",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateBackoff, Failures: 2, Delay: dur(10 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(4 * time.Millisecond)}},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backing off 10ms after 2 consecutive failures: per-item exponential, 5ms·2^1, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 20ms."},
	}, {
		name: "scheduled, requeue-after",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateScheduled, Delay: dur(30 * time.Second), DelaySource: api.SourceRequeueAfter,
			NextRetryAt: at(20 * time.Second), LastError: errAt("an old error", -time.Hour), SameErrorCount: 1,
			LastEventAt: at(-10 * time.Second), LastReconcileAt: at(-10 * time.Second)}},
		want: explain.Diagnosis{State: api.StateScheduled,
			Summary: "Scheduled: the last reconcile asked to be called again after 30s (RequeueAfter) — a planned re-check, not a failure. Next re-check at 10:00:20 (in 20s).",
			Details: []string{"The last change arrived at 09:59:50 and has been reconciled since (the last reconcile at 09:59:50)."}},
	}, {
		name: "scheduled by spread",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateScheduled, Delay: dur(45 * time.Second), DelaySource: api.SourceSpread, NextRetryAt: at(30 * time.Second)}},
		want: explain.Diagnosis{State: api.StateScheduled,
			Summary: "Scheduled: a bulk retry reset its backoff and releases it 45s after the request, so that the keys do not all retry at once. Next retry at 10:00:30 (in 30s)."},
	}, {
		name: "queued after a watch event",
		in: explain.Input{Key: api.Key{
			State: api.StateQueued, QueuedAt: at(-2 * time.Second), LastEventAt: at(-2 * time.Second), LastReconcileAt: at(-5 * time.Minute)}},
		want: explain.Diagnosis{State: api.StateQueued,
			Summary: "Queued since 09:59:58 after a watch event: ready, waiting for a free worker.",
			Details: []string{"The last change arrived at 09:59:58 and has not been reconciled yet."}},
	}, {
		name: "queued because its retry came due",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateQueued, Failures: 5, Delay: dur(80 * time.Millisecond), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(-1500 * time.Millisecond), LastError: errAt("boom", -1580*time.Millisecond), SameErrorCount: 2, FirstFailureAt: at(-time.Minute)}},
		want: explain.Diagnosis{State: api.StateQueued,
			Summary: "Queued: its retry came due at 09:59:58 (1.5s ago); waiting for a free worker.",
			Details: []string{`Last error: "boom", the same on the last 2 attempts.`}},
	}, {
		name: "running, short",
		in:   explain.Input{Key: api.Key{State: api.StateRunning, StartedAt: at(-2 * time.Second)}},
		want: explain.Diagnosis{State: api.StateRunning, Summary: "Reconciling since 09:59:58 (2.0s so far)."},
	}, {
		name: "running, long",
		in: explain.Input{Key: api.Key{State: api.StateRunning, StartedAt: at(-45 * time.Second),
			LastError: errAt("context deadline exceeded", -2*time.Minute), SameErrorCount: 1}},
		want: explain.Diagnosis{State: api.StateRunning, Summary: "Reconciling since 09:59:15 (45s so far).",
			Details: []string{
				"A reconcile this long holds a worker: other keys wait. Return RequeueAfter instead of waiting inside Reconcile.",
				`Last error: "context deadline exceeded".`,
			}},
	}, {
		name: "failed: terminal, counter kept",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateFailed, Failures: 3, LastError: errAt("spec.size: must be positive", -2*time.Minute),
			SameErrorCount: 1, LastReconcileAt: at(-2 * time.Minute)}},
		want: explain.Diagnosis{State: api.StateFailed,
			Summary: "Failed with a terminal error at 09:58:00; not retried. Only a change to the object (a watch event) reconciles it again.",
			Details: []string{
				"The backoff counter is kept at 3: the next failure continues from there.",
				`Last error: "spec.size: must be positive".`,
			}},
	}, {
		name: "idle",
		in: explain.Input{Controller: pqController, Key: api.Key{
			State: api.StateIdle, LastSuccessAt: at(-5 * time.Minute), LastEventAt: at(-5*time.Minute - time.Second),
			LastReconcileAt: at(-5 * time.Minute), LastError: errAt("fixed since", -time.Hour)}},
		want: explain.Diagnosis{State: api.StateIdle,
			Summary: "Converged: the last reconcile succeeded at 09:55:00; the backoff is forgotten.",
			Details: []string{"The last change arrived at 09:54:59 and has been reconciled since (the last reconcile at 09:55:00)."}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = explainNow
			tt.in.Key.Controller, tt.in.Key.Key = "widget", "default/w1"
			checkDiagnosis(t, explain.Explain(tt.in), tt.want)
		})
	}
}

// "The last change arrived at …; the reconcile that saw it ended at …"
// names the reconcile that saw the change, not the last retry since (it
// read as a 41s lag), and says the last reconcile in a clause of its own.
func TestExplainEditNamesTheReconcileThatSawTheChange(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 11, 49, 42, 0, time.UTC)
	attempt := func(at time.Duration, outcome string) api.Attempt {
		return api.Attempt{At: t0.Add(at), Outcome: outcome, Duration: metav1.Duration{Duration: time.Millisecond}}
	}
	k := api.Key{Controller: "widget", Key: "demo/naive-00000", State: api.StateBackoff, Failures: 3,
		LastEventAt: t0, LastReconcileAt: t0.Add(41 * time.Second),
		LastError: &api.ErrorRecord{Message: "boom", At: t0.Add(41 * time.Second)},
		History: []api.Attempt{
			attempt(-time.Minute, api.OutcomeSuccess),
			attempt(2*time.Millisecond, api.OutcomeError),
			attempt(10*time.Second, api.OutcomeError),
			attempt(41*time.Second, api.OutcomeError),
		}}
	d := explain.Explain(explain.Input{Key: k, Now: t0.Add(time.Minute)})
	want := "The last change arrived at 11:49:42; the reconcile that saw it ended at 11:49:42; the last reconcile ended at 11:50:23."
	if !slices.Contains(d.Details, want) {
		t.Errorf("details = %q, want %q", d.Details, want)
	}
}
