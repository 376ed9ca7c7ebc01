package view

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// The key view's advice to kick a key read off a saved log names the file
// (kick --from-logs FILE KEY), as describe's does, not the word TARGET.
func TestDetailKickNamesTheLogFile(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 0, 1, 0, time.UTC)
	k := api.Key{Key: "team-a/w1", State: api.StateBackoff, Failures: 8, TotalFailures: 8, SameErrorCount: 8, Source: api.SourceLogs, Estimated: true,
		FirstFailureAt: now.Add(-time.Second), NextRetryAt: now.Add(time.Second), Delay: metav1.Duration{Duration: 640 * time.Millisecond},
		DelaySource: api.SourceItemExponential, LastError: &api.ErrorRecord{Message: "503 Service Unavailable", Class: api.ClassTransient, At: now}}
	var kick *explain.Finding
	dg := explain.Explain(explain.Input{Key: k, Source: &api.ListSource{Kind: api.SourceLogs}, Now: now})
	for i := range dg.Findings {
		if dg.Findings[i].Command != nil && dg.Findings[i].Command.Verb == "kick" {
			kick = &dg.Findings[i]
		}
	}
	if kick == nil {
		t.Fatalf("findings %+v: want one that kicks", dg.Findings)
	}
	d := &Detail{C: &Common{Opts: Options{LogAt: explain.Session{LogFile: "saved.log"}}}}
	if got := d.Finding(*kick); !strings.Contains(got, "`kubectl backoff kick --from-logs saved.log team-a/w1`") {
		t.Errorf("detail says %q, want the kick through the file", got)
	}
}
