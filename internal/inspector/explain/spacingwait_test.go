package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A key whose delay was estimated from its own spacing (the PV binder's
// claim failing 4.7s apart, testdata/kcm/pvc-binder-v4.log) is not told
// that the retry after next "waits at least 20ms", the assumed limiter's
// count: a client-go per-item limiter never shortens a key's delay within a
// streak, so the next wait is at least the spacing.
func TestSpacingNextWaitIsNoShorter(t *testing.T) {
	c := &api.Controller{Name: "persistentvolume-binder-controller", Limiter: api.Limiter{Components: []api.LimiterComponent{
		{Name: api.SourceItemExponential, BaseDelay: dur(5 * time.Millisecond), MaxDelay: dur(1000 * time.Second)},
		{Name: api.SourceBucket, QPS: 10, Burst: 100}}}}
	k := api.Key{Key: "missing/data", State: api.StateBackoff, Failures: 2, TotalFailures: 2, Source: api.SourceLogs, Estimated: true,
		NextRetryAt: at(4 * time.Second), Delay: dur(4700 * time.Millisecond), DelaySource: api.SourceSpacing,
		LastError: &api.ErrorRecord{Message: `storageclass.storage.k8s.io "fast" not found`, At: at(-700 * time.Millisecond)}}
	got := explain.Explain(explain.Input{Key: k, Controller: c, Source: &api.ListSource{Kind: api.SourceLogs}, Now: explainNow}).Summary
	if !strings.Contains(got, "if it fails again, the one after waits at least 4.7s") {
		t.Errorf("summary:\n%s\nwant the wait after next at least the spacing, 4.7s", got)
	}
}
