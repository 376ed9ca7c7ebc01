package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestGaveUpKeptCount: a key read off a log whose give-up line states the
// count it gave up at (sig-storage-lib-external-provisioner's
// "failures=4", batch15/1506) was not forgotten: every sentence says the
// count, 5 (the 4 before the give-up and its own), never 0, and the
// give-up without a count still says what it can.
func TestGaveUpKeptCount(t *testing.T) {
	kept := api.Key{Source: api.SourceLogs, State: api.StateFailed, Failures: 5, TotalFailures: 3, Reconciles: 3,
		LastReconcileAt: at(-2 * time.Minute), FirstFailureAt: at(-3 * time.Minute),
		LastError: &api.ErrorRecord{Message: "device or resource busy", At: at(-2 * time.Minute), Class: api.ClassUnknown}, SameErrorCount: 3,
		LastReset: &api.Reset{At: at(-2 * time.Minute), By: api.ResetGaveUp, Failures: 5, Kept: true}}
	forgot := kept
	forgot.Failures = 0
	forgot.LastReset = &api.Reset{At: at(-2 * time.Minute), By: api.ResetGaveUp, Failures: 3}

	d := explain.Explain(explain.Input{Key: kept, Now: explainNow})
	if want := "Gave up at 09:58:00 after 5 failures (the count its give-up line states; 3 in this log): not retried until the next change to the object (state failed)."; d.Summary != want {
		t.Errorf("summary %q, want %q", d.Summary, want)
	}
	if len(d.Details) < 2 || !strings.Contains(d.Details[0], "continues from 5") || !strings.HasSuffix(d.Details[1], "before the controller gave up.") {
		t.Errorf("details %q, want the kept count first, then the error before the give-up", d.Details)
	}
	for _, c := range []struct{ name, got, want string }{
		{"GaveUpText", explain.GaveUpText(kept), "gave up after 5 failures"},
		{"CountersText", explain.CountersText(kept, nil), "5 failures (3 logged, 2 before them as the log states), over 3 reconciles"},
		{"FailureCountsText", explain.FailureCountsText(kept, nil), "5 failures (3 logged, 2 before them as the log states)"},
		{"GaveUpText, forgotten", explain.GaveUpText(forgot), "gave up (retry limit reached)"},
		{"CountersText, forgotten", explain.CountersText(forgot, nil), "none counted since the controller gave up; 3 failures in this log, over 3 reconciles"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if s := explain.Explain(explain.Input{Key: forgot, Now: explainNow}).Summary; !strings.HasPrefix(s, "Gave up at 09:58:00 (the controller's retry limit was reached; 3 failures in this log)") {
		t.Errorf("forgotten summary %q", s)
	}
}
