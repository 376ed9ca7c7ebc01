package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestWithAttach: every suggested command gets the args after its verb;
// the text around it, a command outside backquotes and the diagnosis
// given are left as they were.
func TestWithAttach(t *testing.T) {
	d := explain.ControllerDiagnosis{Controller: "outage", Summary: "12 keys backing off",
		Details:  []string{"Limiter: item-exponential 5ms..16m40s"},
		Findings: []explain.Finding{{Code: explain.FindingTransient, Message: "Once back, `kubectl backoff forget --controller outage --all` retries; see kubectl backoff get, or `kubectl backoff describe --controller outage`."}}}
	got := d.WithAttach("deployment/ctrl -n flux-system")
	want := "Once back, `kubectl backoff forget deployment/ctrl -n flux-system --controller outage --all` retries; see kubectl backoff get, or `kubectl backoff describe deployment/ctrl -n flux-system --controller outage`."
	if got.Findings[0].Message != want {
		t.Errorf("WithAttach: %q\nwant %q", got.Findings[0].Message, want)
	}
	if got.Summary != d.Summary || got.Details[0] != d.Details[0] {
		t.Errorf("WithAttach changed text without a command: %+v", got)
	}
	if d.Findings[0].Message == want {
		t.Error("WithAttach changed the diagnosis it was given")
	}
	if s := explain.WithAttach("`kubectl backoff forget --requeue`", " "); s != "`kubectl backoff forget --requeue`" {
		t.Errorf("WithAttach with no args: %q", s)
	}
}

// TestWithLogTarget: a log key's kick suggestion names the key, and the
// workload once the caller says it; left open (TARGET) otherwise.
func TestWithLogTarget(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	obs := int64(2)
	k := api.Key{Key: "team-a/web", Source: api.SourceLogs, State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(time.Minute)}
	d := explain.Explain(explain.Input{Key: k, Now: now,
		Object: &explain.ObjectStatus{Name: "web", Generation: 3, ObservedGeneration: &obs}})
	kick := func(d explain.Diagnosis) string {
		for _, f := range d.Findings {
			if strings.Contains(f.Message, "kick") {
				return f.Message
			}
		}
		return ""
	}
	for _, tt := range []struct{ target, want string }{
		{"", "`kubectl backoff kick TARGET --from-logs team-a/web`"},
		{"deployment/ctrl -n team-a", "`kubectl backoff kick deployment/ctrl -n team-a --from-logs team-a/web`"},
	} {
		if got := kick(d.WithLogTarget(tt.target)); !strings.Contains(got, tt.want) {
			t.Errorf("WithLogTarget(%q): %q; want it to say %s", tt.target, got, tt.want)
		}
	}
	if !strings.Contains(kick(d), "kick TARGET") {
		t.Errorf("WithLogTarget changed the diagnosis it was given: %q", kick(d))
	}
}
