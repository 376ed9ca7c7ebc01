package explain

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A streak log mode restarted at a fresh ramp says so, with its start and
// count, instead of "may not be consecutive"; its first row says why.
func TestExplainNewStreak(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 10, 3, 0, time.UTC)
	k := api.Key{Controller: "configmap", Key: "w/c1", State: api.StateBackoff, Failures: 5, SameErrorCount: 5,
		FirstFailureAt: at, NextRetryAt: at.Add(80 * time.Millisecond), Delay: metav1.Duration{Duration: 80 * time.Millisecond},
		DelaySource: api.SourceItemExponential, Source: api.SourceLogs, Estimated: true,
		LastError: &api.ErrorRecord{Message: "boom", At: at, Class: api.ClassTransient}}
	k.History = append(k.History, api.Attempt{At: at.Add(-5 * time.Second), Outcome: api.OutcomeError, Error: "boom", Trigger: api.TriggerRetry})
	for i := range 5 {
		a := api.Attempt{At: at, Outcome: api.OutcomeError, Error: "boom", Trigger: api.TriggerRetry,
			Delay: metav1.Duration{Duration: 5 * time.Millisecond << i}}
		if i == 0 {
			a.Trigger = api.TriggerNewStreak
		}
		k.History = append(k.History, a)
	}
	d := Explain(Input{Key: k, Controller: &api.Controller{Name: "configmap", Active: true},
		Source: &api.ListSource{Kind: api.SourceLogs}, Now: at.Add(time.Second)})
	all := d.String()
	if want := "A new streak from 10:10:03: 5 failures in a fresh ramp"; !strings.Contains(all, want) || strings.Contains(all, "may not be consecutive") {
		t.Errorf("diagnosis does not say %q (or still doubts the count):\n%s", want, all)
	}
	if got := TriggerText(k.History[1], &k.History[0]); !strings.Contains(got, "new streak") {
		t.Errorf("TriggerText(new-streak) = %q", got)
	}
}

// A delay a log states is quoted in the log's own words, never called a
// RequeueAfter nor given another project's phrase.
func TestExplainStatedDelay(t *testing.T) {
	at := time.Date(2026, 2, 11, 5, 53, 9, 0, time.UTC)
	k := api.Key{Controller: "service_controller", Key: "kube-system/kube-dns", State: api.StateBackoff, Failures: 1,
		FirstFailureAt: at, NextRetryAt: at.Add(160 * time.Second), Delay: metav1.Duration{Duration: 160 * time.Second},
		DelaySource: api.SourceStated, DelayWords: "Retrying in 2m40s", Source: api.SourceLogs,
		LastError: &api.ErrorRecord{Message: "error getting LB", At: at, Class: api.ClassTransient}}
	all := Explain(Input{Key: k, Controller: &api.Controller{Name: "service_controller", Active: true},
		Source: &api.ListSource{Kind: api.SourceLogs}, Now: at.Add(time.Second)}).String()
	if !strings.Contains(all, `the log states this delay: "Retrying in 2m40s"`) || strings.Contains(all, "RequeueAfter") ||
		strings.Contains(all, "next try in") || strings.Contains(all, "asked for this retry itself") {
		t.Errorf("want the log's own words, no RequeueAfter and no Flux phrase:\n%s", all)
	}
}
