package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestPermanentAdviceIsOnePiece: a permanent error's advice is one piece,
// said the same way wherever it is read (top, describe, get): a change to
// the object or to what it depends on fixes it. A missing Service the
// object refers to is not fixed by changing the object, so no finding may
// say "only a change to the object" beside "fix what it depends on"
// (the newcomer's `services "webhook-service" not found`).
func TestPermanentAdviceIsOnePiece(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var texts []string
	for _, source := range []string{"", api.SourceLogs} {
		permanent := api.Key{Key: "default/w", Source: source, State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(time.Minute),
			LastError: &api.ErrorRecord{Message: `services "webhook-service" not found`, Class: api.ClassPermanent}}
		lasting := api.Key{Key: "default/w", Source: source, State: api.StateBackoff, Failures: 17, SameErrorCount: 17,
			NextRetryAt: now.Add(time.Minute), FirstFailureAt: now.Add(-20 * time.Minute),
			LastError: &api.ErrorRecord{Message: `services "webhook-service" not found`, Class: api.ClassUnknown}}
		for _, k := range []api.Key{permanent, lasting} {
			for _, f := range explain.Explain(explain.Input{Key: k, Now: now}).Findings {
				if f.Code == explain.FindingPermanent {
					texts = append(texts, f.Message, f.User)
				}
			}
		}
	}
	c := api.Controller{Name: "naive", Active: true, Keys: 2, Counts: map[api.State]int{api.StateBackoff: 2}}
	groups := []api.ErrorGroup{{Controller: "naive", Message: `services "webhook-service" not found`, Class: api.ClassPermanent, Count: 2, FirstSeen: now.Add(-time.Minute)}}
	for _, f := range explain.DiagnoseController(c, nil, groups, now).Findings {
		if f.Code == explain.FindingPermanent {
			texts = append(texts, f.Message)
		}
	}
	if len(texts) < 5 {
		t.Fatalf("found %d permanent findings, want the key's (endpoint and log, permanent and lasting) and the controller's: %q", len(texts), texts)
	}
	for _, s := range texts {
		if s == "" {
			continue
		}
		if !strings.Contains(s, "the object") || !strings.Contains(s, "what it depends on") {
			t.Errorf("%q\nwant it to name the object and what it depends on", s)
		}
		for _, only := range []string{"only a change to the object will", "only a change to the object can,", "only a change to the object can fix"} {
			if strings.Contains(s, only) {
				t.Errorf("%q\nsays %q: a missing object it depends on is fixed without changing the object", s, only)
			}
		}
	}
}
