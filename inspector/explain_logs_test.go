package inspector

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
	if !slices.Contains(d.Details, estimatedNote) {
		t.Errorf("details = %q, want the estimate note", d.Details)
	}
	k.Source = ""
	k.State = api.StateBackoff
	if d := Explain(ExplainInput{Key: k, Now: last}); slices.Contains(d.Details, estimatedNote) {
		t.Errorf("an instrumented key's details carry the log note: %q", d.Details)
	}
}
