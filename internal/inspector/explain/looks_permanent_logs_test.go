package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// An unclassified error that lasts, read off a log (the demo's naive keys,
// edited every few seconds, `describe --from-logs demo.log
// demo/naive-00005` after 25 minutes), is not said to have had "no change
// to the object since": a log shows no watch events, and its attempts that
// came sooner than their retry may be edits. Its advice is the reader's
// (fix what the error names), as a permanent class's is from a log, not the
// authors' (return a TerminalError).
func TestLooksPermanentFromALog(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 48, 36, 0, time.UTC)
	k := api.Key{Key: "demo/naive-00005", State: api.StateBackoff, Failures: 40, TotalFailures: 40, SameErrorCount: 40,
		Source: api.SourceLogs, Estimated: true, FirstFailureAt: now.Add(-25 * time.Minute), NextRetryAt: now.Add(15 * time.Minute),
		Delay: dur(1000 * time.Second), DelaySource: api.SourceItemExponential,
		LastError: &api.ErrorRecord{Message: "spec.storageClass must be set", At: now.Add(-time.Minute)}}
	var found *explain.Finding
	d := explain.Explain(explain.Input{Key: k, Source: &api.ListSource{Kind: api.SourceLogs}, Now: now})
	for i := range d.Findings {
		if d.Findings[i].Code == explain.FindingPermanent {
			found = &d.Findings[i]
		}
	}
	if found == nil {
		t.Fatalf("findings %+v: want it to look permanent", d.Findings)
	}
	if strings.Contains(found.Message, "no change to the object") || strings.Contains(found.Message, "TerminalError") ||
		!strings.Contains(found.Message, "looks permanent") || !strings.Contains(found.Message, "Fix what the error names") {
		t.Errorf("from a log: %s\nwant it to look permanent, with the reader's advice and no claim of no change", found.Message)
	}
}

// A run of the error longer than the count (the count restarted among its
// attempts, the history holding only the last few) began before the
// count's first failure: "the same error on the last 106 attempts over
// 10m9s" named the count's span, not the run's (23 minutes, `describe
// --from-logs demo.log demo/naive-00003`).
func TestLooksPermanentRunSpansARestart(t *testing.T) {
	now := time.Date(2026, 12, 7, 20, 15, 5, 0, time.UTC)
	first := now.Add(-10*time.Minute - 9*time.Second)
	k := api.Key{Key: "demo/naive-00003", State: api.StateBackoff, Failures: 38, TotalFailures: 106, SameErrorCount: 106,
		Source: api.SourceLogs, Estimated: true, FirstFailureAt: first, NextRetryAt: now.Add(15 * time.Minute),
		Delay: dur(1000 * time.Second), DelaySource: api.SourceItemExponential,
		LastError: &api.ErrorRecord{Message: "spec.storageClass must be set", At: now.Add(-time.Minute)}}
	for i := range 16 {
		k.History = append(k.History, api.Attempt{At: now.Add(time.Duration(i-16) * time.Minute), Outcome: api.OutcomeError, Error: "spec.storageClass must be set"})
	}
	d := explain.Explain(explain.Input{Key: k, Source: &api.ListSource{Kind: api.SourceLogs}, Now: now})
	var found *explain.Finding
	for i := range d.Findings {
		if d.Findings[i].Code == explain.FindingPermanent {
			found = &d.Findings[i]
		}
	}
	if found == nil {
		t.Fatalf("findings %+v: want it to look permanent", d.Findings)
	}
	if !strings.Contains(found.Message, "the last 106 attempts over more than 10m9s") {
		t.Errorf("%s\nwant the run said longer than the count's 10m9s: it began before the count restarted", found.Message)
	}
}
