package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestExplainResets: after a forget or a give-up the words never contradict
// the counter ("backing off after 0 consecutive failures", "looks
// permanent" about a streak that was reset), and the key is still failing
// since its streak began: a forget restarts the count, not the failure.
func TestExplainResets(t *testing.T) {
	// forgotten was 139 failures deep on one error, forgotten without a
	// requeue: its pending retry keeps its time.
	forgotten := api.Key{State: api.StateBackoff, Failures: 0, TotalFailures: 139, Delay: dur(50 * time.Second),
		DelaySource: api.SourceItemExponential, NextRetryAt: at(50 * time.Second), SameErrorCount: 139,
		FirstFailureAt: at(-time.Hour), LastReconcileAt: at(-10 * time.Second),
		LastError: &api.ErrorRecord{Message: "quota exceeded", At: at(-10 * time.Second), Class: api.ClassUnknown},
		LastReset: &api.Reset{At: at(-5 * time.Second), By: api.ResetForget, Failures: 139}}
	byAlice := forgotten
	byAlice.LastReset = &api.Reset{At: at(-5 * time.Second), By: api.ResetForget, Failures: 139, User: "alice", Reason: "quota raised"}
	due := forgotten
	due.NextRetryAt = at(-time.Second)
	noReset := forgotten
	noReset.LastReset = nil

	gaveUp := api.Key{State: api.StateFailed, Failures: 0, TotalFailures: 5, LastReconcileAt: at(-2 * time.Minute),
		LastError: &api.ErrorRecord{Message: "boom", At: at(-2 * time.Minute), Class: api.ClassUnknown}, SameErrorCount: 5,
		LastReset: &api.Reset{At: at(-2 * time.Minute), By: api.ResetGaveUp, Failures: 5}}
	// terminalAfterGiveUp gave up once, then failed with a terminal error on a later event.
	terminalAfterGiveUp := gaveUp
	terminalAfterGiveUp.LastReconcileAt, terminalAfterGiveUp.Failures = at(-time.Minute), 1
	terminalAfterGiveUp.LastError = &api.ErrorRecord{Message: "spec.size: must be positive", At: at(-time.Minute), Class: api.ClassPermanent}
	terminalAfterGiveUp.SameErrorCount = 1

	tests := []struct {
		name string
		in   explain.Input
		want explain.Diagnosis
	}{{
		name: "forgotten, retry pending",
		in:   explain.Input{Controller: pqController, Key: forgotten},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backoff forgotten at 09:59:55 (by forget); the retry already scheduled at 10:00:50 keeps its time (in 50s); the next failure waits 5ms.",
			Details: []string{`Last error: "quota exceeded", the same on the last 139 attempts before the reset; failing since 09:00:00.`}},
	}, {
		name: "forgotten by a user with a reason, classic queue",
		in:   explain.Input{Controller: classicController, Key: byAlice},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backoff forgotten at 09:59:55 (by forget, alice: quota raised); the retry already scheduled at 10:00:50 keeps its time (in 50s); the next failure waits at least 5ms.",
			Details: []string{`Last error: "quota exceeded", the same on the last 139 attempts before the reset; failing since 09:00:00.`}},
	}, {
		// A forget resets the per-item count, not the bucket: with 99
		// tokens owed the next failure borrows the 100th token,
		// repaid in 100/10 s, not the 5ms base (issue #23).
		name: "forgotten on a classic queue whose bucket is in debt",
		in:   explain.Input{Controller: controllerWith(exponential, bucketWith(-99)), Key: byAlice},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backoff forgotten at 09:59:55 (by forget, alice: quota raised); the retry already scheduled at 10:00:50 keeps its time (in 50s); the next failure waits about 10s: the token bucket decides, not the failure count (99 tokens owed, refilled at 10 per second).",
			Details: []string{`Last error: "quota exceeded", the same on the last 139 attempts before the reset; failing since 09:00:00.`},
			Findings: []explain.Finding{{Code: explain.FindingThrottled,
				Message: "The token bucket is empty, 99 tokens owed: a new retry waits about 10s. Every retry of this controller is throttled to 10 per second."}}},
	}, {
		name: "forgotten, the kept retry came due",
		in:   explain.Input{Key: due},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "Backoff forgotten at 09:59:55 (by forget); the retry already scheduled came due at 09:59:59; the next failure starts the backoff over.",
			Details: []string{`Last error: "quota exceeded", the same on the last 139 attempts before the reset; failing since 09:00:00.`}},
	}, {
		name: "no failures counted and no reset known",
		in:   explain.Input{Controller: pqController, Key: noReset},
		want: explain.Diagnosis{State: api.StateBackoff,
			Summary: "No failures counted; the retry already scheduled at 10:00:50 keeps its time (in 50s); the next failure waits 5ms.",
			Details: []string{`Last error: "quota exceeded", the same on the last 139 attempts; failing since 09:00:00.`}},
	}, {
		name: "the controller gave up",
		in:   explain.Input{Controller: pqController, Key: gaveUp},
		want: explain.Diagnosis{State: api.StateFailed,
			Summary: "Gave up after 5 retries at 09:58:00: not retried until the next change to the object (state failed).",
			Details: []string{`Last error: "boom", the same on the last 5 attempts before the controller gave up.`}},
	}, {
		name: "a terminal error after an earlier give-up is a terminal error",
		in:   explain.Input{Controller: pqController, Key: terminalAfterGiveUp},
		want: explain.Diagnosis{State: api.StateFailed,
			Summary: "Failed with a terminal error at 09:59:00; not retried. Only a change to the object (a watch event) reconciles it again.",
			Details: []string{"The backoff counter is kept at 1: the next failure continues from there.",
				`Last error (permanent): "spec.size: must be positive".`}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = explainNow
			checkDiagnosis(t, explain.Explain(tt.in), tt.want)
		})
	}
}

// TestExplainHistoryLoops: the triggers in a key's history reveal the hot
// loops no single snapshot shows.
func TestExplainHistoryLoops(t *testing.T) {
	ok := func(s time.Duration, trigger string) api.Attempt {
		return api.Attempt{At: at(s), Outcome: api.OutcomeSuccess, Trigger: trigger, Duration: dur(20 * time.Millisecond)}
	}
	fail := func(s time.Duration, trigger string, preempted bool) api.Attempt {
		return api.Attempt{At: at(s), Outcome: api.OutcomeError, Trigger: trigger, Preempted: preempted, Error: "conflict",
			Delay: dur(time.Minute), Class: api.ClassTransient}
	}
	// echo: each success comes back as an event 100ms later.
	var echo []api.Attempt
	for i := range 4 {
		echo = append(echo, ok(time.Duration(i)*200*time.Millisecond-time.Second, api.TriggerEvent))
	}
	// slowEcho: the events come 5s apart: a user editing, not a loop.
	var slowEcho []api.Attempt
	for i := range 4 {
		slowEcho = append(slowEcho, ok(time.Duration(i)*5*time.Second-time.Minute, api.TriggerEvent))
	}
	preempting := []api.Attempt{fail(-4*time.Second, api.TriggerFirst, false), fail(-3*time.Second, api.TriggerEvent, true),
		fail(-2*time.Second, api.TriggerEvent, true), fail(-time.Second, api.TriggerEvent, true)}
	idle := api.Key{State: api.StateIdle, LastSuccessAt: at(-400 * time.Millisecond)}

	tests := []struct {
		name    string
		key     api.Key
		history []api.Attempt
		want    []explain.Finding
	}{{
		name: "events right after its own successes", key: idle, history: echo,
		want: []explain.Finding{{Code: explain.FindingHotLoop,
			Message: "A hot loop: 3 of the last 4 attempts ran on a watch event less than 1.0s after the key's own successful reconcile. " +
				"The controller's own write (often a status update) comes back as an event and triggers it again: write only what changed, or ignore such events with a predicate (e.g. GenerationChangedPredicate)."}},
	}, {
		name: "events well after its successes", key: idle, history: slowEcho,
	}, {
		name:    "events pre-empting the backoff",
		key:     api.Key{State: api.StateBackoff, Failures: 4, Delay: dur(time.Minute), DelaySource: api.SourceLimiter, NextRetryAt: at(time.Minute)},
		history: preempting,
		want: []explain.Finding{{Code: explain.FindingHotLoop,
			Message: "Watch events pre-empted this key's backoff 3 times in the last 4 attempts: each event retries it at once, so it fails at the rate the object changes, not the rate backoff allows. " +
				"Find what keeps changing the object (another writer fighting this controller?), or ignore changes that do not touch the spec (GenerationChangedPredicate)."}},
	}, {
		name:    "two pre-emptions are not yet a loop",
		key:     api.Key{State: api.StateBackoff, Failures: 3, Delay: dur(time.Minute), DelaySource: api.SourceLimiter, NextRetryAt: at(time.Minute)},
		history: preempting[:3],
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := tt.key
			k.History = tt.history
			got := explain.Explain(explain.Input{Key: k, Now: explainNow}).Findings
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("Findings:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestTriggerText(t *testing.T) {
	prev := &api.Attempt{Outcome: api.OutcomeError, Delay: dur(1280 * time.Millisecond)}
	tests := []struct {
		a    api.Attempt
		prev *api.Attempt
		want string
	}{
		{api.Attempt{}, nil, "-"},
		{api.Attempt{Trigger: api.TriggerFirst}, nil, "first"},
		{api.Attempt{Trigger: api.TriggerRetry}, prev, "retry after 1.3s"},
		{api.Attempt{Trigger: api.TriggerRetry}, nil, "retry"},
		{api.Attempt{Trigger: api.TriggerEvent}, prev, "event"},
		{api.Attempt{Trigger: api.TriggerEvent, Preempted: true}, prev, "event (pre-empted the backoff)"},
		{api.Attempt{Trigger: api.TriggerRequeueAfter}, nil, "requeue-after"},
		{api.Attempt{Trigger: api.TriggerForget}, prev, "forget"},
		{api.Attempt{Trigger: api.TriggerForget, By: "alice", Reason: "db restored"}, prev, "forget by alice: db restored"},
	}
	for _, tt := range tests {
		if got := explain.TriggerText(tt.a, tt.prev); got != tt.want {
			t.Errorf("TriggerText(%+v) = %q, want %q", tt.a, got, tt.want)
		}
	}
}

// TestExplainRetryPlan: the transient advice says what the limiter will
// wait next, from its description alone.
func TestExplainRetryPlan(t *testing.T) {
	key := func(failures int) api.Key {
		return api.Key{State: api.StateBackoff, Failures: failures, Delay: dur(time.Second), DelaySource: api.SourceItemExponential,
			NextRetryAt: at(time.Second), SameErrorCount: explain.PermanentAfter,
			LastError: &api.ErrorRecord{Message: "503", At: explainNow, Class: api.ClassTransient}}
	}
	tests := []struct {
		name     string
		c        *api.Controller
		failures int
		want     string // the plan inside the advice
	}{
		{"early", pqController, 2, "20ms, 40ms, 80ms, … up to 16m40s (the cap)"},
		{"reaching the cap", pqController, 17, "10m55s, then 16m40s each (the cap)"},
		{"at the cap", pqController, 25, "16m40s each (the cap)"},
		{"a bucket may wait longer", classicController, 2, "at least 20ms, 40ms, 80ms, … up to 16m40s (the cap)"},
		{"no exponential to compute from", controllerWith(bucketWith(5)), 2, ""},
		// -99 tokens: each failure waits (1+99)/10 = 10s while the keys
		// ahead keep failing, until 5ms·2^12 = 20.48s outgrows it (10.24s
		// reads as the same 10s).
		{"a bucket in debt decides", controllerWith(exponential, bucketWith(-99)), 2,
			"about 10s each while the keys waiting on it keep failing: the token bucket decides (99 tokens owed, refilled at 10 per second), then 20s, 41s, 1m22s, … up to 16m40s (the cap)"},
		// A bucket slower than the cap decides every failure.
		{"a bucket beyond the cap", controllerWith(api.LimiterComponent{Name: api.SourceItemExponential, BaseDelay: dur(5 * time.Millisecond), MaxDelay: dur(time.Second)}, bucketWith(-99)), 2,
			"about 10s each while the keys waiting on it keep failing: the token bucket decides (99 tokens owed, refilled at 10 per second)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := explain.Explain(explain.Input{Key: key(tt.failures), Controller: tt.c, Now: explainNow})
			if len(d.Findings) == 0 || d.Findings[0].Code != explain.FindingTransient {
				t.Fatalf("Findings = %q, want the transient advice first", d.Findings)
			}
			msg := d.Findings[0].Message
			has := strings.Contains(msg, "the next retries wait "+tt.want+".")
			if tt.want == "" {
				has = !strings.Contains(msg, "the next retries wait")
			}
			if !has {
				t.Errorf("advice %q: want the plan %q", msg, tt.want)
			}
		})
	}
}

// A forgotten key still waiting for its retry has no failure to count: its
// count says the reset, never "0 consecutive failures" beside the "failing
// on it" of `why` and of the object's verdict.
func TestFailuresTextAfterForget(t *testing.T) {
	at := time.Date(2026, 12, 6, 17, 2, 3, 0, time.UTC)
	for _, c := range []struct {
		name string
		k    api.Key
		want string
	}{
		{"forgotten", api.Key{State: api.StateBackoff, LastReset: &api.Reset{At: at, By: api.ResetForget, Failures: 9, User: "alice", Reason: "db restored"}},
			"0 since the forget at 17:02:03"},
		{"given up", api.Key{State: api.StateFailed, LastReset: &api.Reset{At: at, By: api.ResetGaveUp, Failures: 15}},
			"0 since the controller gave up at 17:02:03"},
		{"failing again since", api.Key{State: api.StateBackoff, Failures: 2, LastReset: &api.Reset{At: at, By: api.ResetForget, Failures: 9}},
			"2 consecutive failures"},
	} {
		if got := explain.FailuresText(c.k, nil); got != c.want {
			t.Errorf("%s: FailuresText = %q, want %q", c.name, got, c.want)
		}
	}
}
