package explain

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestExplainUnknownFromLogs(t *testing.T) {
	last := time.Date(2026, 11, 30, 8, 24, 45, 0, time.UTC)
	k := api.Key{Controller: "widget", Key: "default/w1", State: api.StateUnknown, Failures: 2,
		NextRetryAt: last.Add(10 * time.Millisecond), Delay: metav1.Duration{Duration: 10 * time.Millisecond},
		LastError: &api.ErrorRecord{Message: "connection refused", At: last}, Source: api.SourceLogs, Estimated: true}
	d := Explain(ExplainInput{Key: k, Now: last.Add(time.Minute)})
	if want := "Unknown: 2 consecutive failures, the last at 08:24:45"; !strings.HasPrefix(d.Summary, want) {
		t.Errorf("summary = %q, want it to start %q", d.Summary, want)
	}
	if !strings.Contains(d.Summary, "success is not logged at the default verbosity") {
		t.Errorf("summary = %q, want it to say success is not logged", d.Summary)
	}
	if !slices.Contains(d.Details, logNote(k, nil)) || !strings.Contains(logNote(k, nil), "estimates") {
		t.Errorf("details = %q, want the estimate note", d.Details)
	}
	k.Source = ""
	k.State = api.StateBackoff
	if d := Explain(ExplainInput{Key: k, Now: last}); slices.ContainsFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, "Read from the controller's log") }) {
		t.Errorf("an instrumented key's details carry the log note: %q", d.Details)
	}
}

// A key read from a log that reached its logger's sampling rate says its
// count may be low, when it failed since; the controller says it too.
func TestExplainSampledLog(t *testing.T) {
	sampled := time.Date(2026, 11, 30, 8, 24, 0, 0, time.UTC)
	c := &api.Controller{Name: "widget", Active: true, Source: api.SourceLogs, LogSampledAt: sampled,
		Counts: map[api.State]int{api.StateBackoff: 1}}
	key := func(lastErr time.Time) api.Key {
		return api.Key{Controller: "widget", Key: "default/w1", State: api.StateBackoff, Failures: 2,
			NextRetryAt: lastErr.Add(10 * time.Millisecond), Delay: metav1.Duration{Duration: 10 * time.Millisecond},
			DelaySource: api.SourceItemExponential,
			LastError:   &api.ErrorRecord{Message: "connection refused", At: lastErr}, Source: api.SourceLogs, Estimated: true}
	}
	const want = "The failure count may be low: from 08:24:00 the log reached 100 \"Reconciler error\" lines a second"
	has := func(d Diagnosis) bool {
		return slices.ContainsFunc(d.Details, func(s string) bool { return strings.HasPrefix(s, want) })
	}
	if d := Explain(ExplainInput{Key: key(sampled.Add(time.Second)), Controller: c, Now: sampled.Add(time.Second)}); !has(d) {
		t.Errorf("a key failing after the log was sampled: details = %q, want one starting %q", d.Details, want)
	}
	if d := Explain(ExplainInput{Key: key(sampled.Add(-time.Second)), Controller: c, Now: sampled}); has(d) {
		t.Errorf("a key whose last failure came before: details = %q, want no sampling note", d.Details)
	}
	unsampled := *c
	unsampled.LogSampledAt = time.Time{}
	if d := Explain(ExplainInput{Key: key(sampled.Add(time.Second)), Controller: &unsampled, Now: sampled.Add(time.Second)}); has(d) {
		t.Errorf("a log never sampled: details = %q, want no sampling note", d.Details)
	}
	d := DiagnoseController(*c, nil, sampled.Add(time.Second))
	if !slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Code == FindingLogSampled }) {
		t.Errorf("controller findings = %+v, want %s", d.Findings, FindingLogSampled)
	}
	if d := DiagnoseController(unsampled, nil, sampled); slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Code == FindingLogSampled }) {
		t.Errorf("an unsampled log's findings = %+v, want no %s", d.Findings, FindingLogSampled)
	}
}

// A retry the log stated (Flux's "next try in 1m0s") is described as
// stated, not estimated; a failure whose time could not be read says
// "time unknown", never 00:00:00.
func TestExplainStatedRetryFromLogs(t *testing.T) {
	at := time.Date(2026, 11, 30, 8, 24, 45, 0, time.UTC)
	c := &api.Controller{Name: "kustomization", Active: true, Source: api.SourceLogs,
		Limiter: api.Limiter{Components: []api.LimiterComponent{{Name: api.SourceItemExponential,
			BaseDelay: metav1.Duration{Duration: 5 * time.Millisecond}, MaxDelay: metav1.Duration{Duration: 1000 * time.Second}}}}}
	k := api.Key{Controller: "kustomization", Key: "flux-system/apps", State: api.StateBackoff, Failures: 1,
		NextRetryAt: at.Add(time.Minute), Delay: metav1.Duration{Duration: time.Minute}, DelaySource: api.SourceRequeueAfter,
		LastError: &api.ErrorRecord{Message: "kustomize build failed", At: at}, Source: api.SourceLogs}
	d := Explain(ExplainInput{Key: k, Controller: c, Now: at.Add(time.Second)})
	if want := "the controller asked for this retry itself (RequeueAfter), as its log states"; !strings.Contains(d.Summary, want) || strings.Contains(d.Summary, "if it fails again") {
		t.Errorf("summary = %q, want it to say %q and no exponential's next delay", d.Summary, want)
	}
	if want := "the next retry is the one the log states"; !slices.ContainsFunc(d.Details, func(s string) bool { return strings.Contains(s, want) }) {
		t.Errorf("details = %q, want one saying %q", d.Details, want)
	}
	k.State = api.StateUnknown
	if d := Explain(ExplainInput{Key: k, Controller: c, Now: at.Add(time.Hour)}); !strings.Contains(d.Summary, "its retry was due at 08:25:45 (stated by the log)") {
		t.Errorf("summary = %q, want the stated retry", d.Summary)
	}
	k.Estimated, k.LastError.At = true, time.Time{}
	if d := Explain(ExplainInput{Key: k, Controller: c, Now: at.Add(time.Hour)}); !strings.Contains(d.Summary, "the last with its time unknown") || strings.Contains(d.Summary, "00:00:00") {
		t.Errorf("summary = %q, want the last failure's time unknown", d.Summary)
	}
}
