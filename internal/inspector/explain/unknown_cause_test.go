package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestExplainUnknownLongerBackoff: a key read off a log, quiet past its
// estimated retry, is said to be unknown with the likeliest cause when the
// log was read from the middle of a streak: its backoff is longer than
// estimated, as the failures before the first line read are not counted.
// A retry the log stated, or a count it stated (the limiter's own), is no
// estimate of that kind: not said of them.
func TestExplainUnknownLongerBackoff(t *testing.T) {
	const cause = "or its backoff is longer than estimated: failures before the first line read are not counted"
	base := api.Key{Key: "ns/w", State: api.StateUnknown, Failures: 3, TotalFailures: 3, Source: api.SourceLogs, Estimated: true,
		NextRetryAt: at(-time.Minute), Delay: dur(20 * time.Millisecond), DelaySource: api.SourceItemExponential,
		LastReconcileAt: at(-time.Minute), LastError: &api.ErrorRecord{Message: "boom", At: at(-time.Minute)}}
	stated := base
	stated.Estimated, stated.DelaySource = false, api.SourceStated
	counted := base
	counted.Failures, counted.TotalFailures = 17, 1
	for _, tt := range []struct {
		name string
		k    api.Key
		want bool
	}{{"estimated", base, true}, {"the log stated the retry", stated, false}, {"the log stated the count", counted, false}} {
		d := explain.Explain(explain.Input{Key: tt.k, Source: &api.ListSource{Kind: api.SourceLogs}, Now: explainNow})
		if got := strings.Contains(d.Summary, cause); got != tt.want {
			t.Errorf("%s: says the longer backoff %v, want %v: %s", tt.name, got, tt.want, d.Summary)
		}
	}
}
