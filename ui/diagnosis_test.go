package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The header's diagnosis is the selected controller's, or the worst one's
// when all are shown; the error groups, once read, name the error.
func TestDiagnosisLine(t *testing.T) {
	naive := api.ErrorGroup{Controller: "naive", Fingerprint: "spec.storageClass must be set", Message: "spec.storageClass must be set",
		Class: api.ClassPermanent, Count: 30, FirstSeen: t0.Add(-12 * time.Minute), LastSeen: t0}
	tests := []struct {
		name       string
		controller string
		groups     []api.ErrorGroup
		want       string
	}{
		{"all, counts only: the most keys in trouble", "", nil,
			"worst of 3 controllers in trouble: outage — 842 keys backing off; the token bucket is empty: retries throttled to 10/s"},
		{"all, with groups: a permanent error is worse than keys backing off on nothing known", "", []api.ErrorGroup{naive},
			"worst of 3 controllers in trouble: naive — 30 keys failing for 12m00s on the same permanent error: spec.storageClass must be set"},
		{"one controller", "wellbehaved", nil,
			"wellbehaved — 20 keys failed for good: not retried until their objects change"},
		{"one controller, others' groups ignored", "outage", []api.ErrorGroup{naive},
			"outage — 842 keys backing off; the token bucket is empty: retries throttled to 10/s"},
	}
	for _, tt := range tests {
		m := loaded(t, 200, 30)
		m.top.controller, m.top.groups = tt.controller, tt.groups
		if e, a := tt.want, strings.TrimRight(splitLines(screen(m))[2], " "); e != a {
			t.Errorf("%s:\nwant %q\n got %q", tt.name, e, a)
		}
	}
}

// Help explains the header's lines that are not self-evident: the worst
// controller's diagnosis and the limiters line, with its "(1 of 3)".
func TestHelpExplainsTheHeader(t *testing.T) {
	for _, w := range []int{60, 80, 120} {
		help := helpText(send(t, loaded(t, w, 30), press("?")))
		for _, want := range []string{
			"worst of N controllers in trouble",
			"N controllers have keys in trouble",
			"tab switches",
			"limiters",
			"exp 5ms..16m40s",
			"(1 of 3)",
		} {
			if !strings.Contains(help, want) {
				t.Errorf("at %d columns help does not say %q:\n%s", w, want, help)
			}
		}
	}
}
