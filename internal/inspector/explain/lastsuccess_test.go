package explain

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A key whose reconciles only ever asked for RequeueAfter has no success in
// controller-runtime's terms; "Last success: -" alone read as "never worked".
func TestLastSuccessText(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		k    api.Key
		want string
	}{
		{"polling, never failed", api.Key{Reconciles: 6, DelaySource: api.SourceRequeueAfter},
			"- (no error in 6 reconciles; the last asked for RequeueAfter)"},
		{"failing", api.Key{Reconciles: 3, TotalFailures: 3, DelaySource: api.SourceItemExponential}, "-"},
		{"succeeded", api.Key{Reconciles: 2, LastSuccessAt: now.Add(-time.Minute)}, "1m0s ago"},
	} {
		if got := LastSuccessText(tt.k, now); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
