package explain_test

import (
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector/explain"
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
