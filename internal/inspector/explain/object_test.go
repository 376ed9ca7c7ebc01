package explain

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestObjectJSONSpeaksKubernetes: describe -o json and why -o json print an
// object's status, conditions and Events with the API's lowerCamel names
// (as kubectl get -o json does), not Go's field names.
func TestObjectJSONSpeaksKubernetes(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	obs := int64(2)
	b, err := json.Marshal(objstatus.Object{Kind: "Kustomization", Namespace: "flux-system", Name: "apps",
		Verdict: objstatus.Verdict{Generation: 3, ObservedGeneration: &obs,
			Conditions: []objstatus.Condition{{Type: "Ready", Status: "False", Reason: "BuildFailed", LastTransitionTime: at}}},
		Events: []objstatus.Event{{Type: "Warning", Reason: "BuildFailed", Message: "kustomize build failed", Count: 2, LastSeen: at}}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{`"kind":"Kustomization"`, `"observedGeneration":2`, `"conditions":[{"type":"Ready","status":"False","reason":"BuildFailed","lastTransitionTime":"2026-12-01T09:00:00Z"}]`,
		`"events":[{"type":"Warning","reason":"BuildFailed","message":"kustomize build failed","count":2,"lastSeen":"2026-12-01T09:00:00Z"}]`} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON lacks %s:\n%s", want, got)
		}
	}
	for _, goName := range []string{`"Kind"`, `"Events"`, `"LastSeen"`, `"Verdict"`} {
		if strings.Contains(got, goName) {
			t.Errorf("JSON has the Go name %s:\n%s", goName, got)
		}
	}
}

// TestRetryNowFitsTheSource: the advice to retry at once is forget for a
// key an endpoint serves, and kick for one read from a log, which nothing
// can forget.
func TestRetryNowFitsTheSource(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	obs := int64(2)
	obj := &objstatus.Object{Name: "w", Verdict: objstatus.Verdict{Generation: 3, ObservedGeneration: &obs}}
	for _, tt := range []struct {
		source, want, not string
	}{
		{"", "`kubectl backoff forget --requeue`", "kick"},
		{api.SourceLogs, "`kubectl backoff kick TARGET --from-logs default/w`", "forget"},
	} {
		k := api.Key{Key: "default/w", Source: tt.source, State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(time.Minute)}
		var msg string
		for _, f := range Explain(Input{Key: k, Object: obj, Now: now}).Findings {
			if f.Code == FindingUnobserved {
				msg = f.Message
			}
		}
		if !strings.Contains(msg, tt.want) || strings.Contains(msg, tt.not) {
			t.Errorf("source %q: %q; want %s, not %s", tt.source, msg, tt.want, tt.not)
		}
	}
}
