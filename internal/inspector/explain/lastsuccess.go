package explain

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// LastSuccessText is when the key last converged, as describe's counters
// say it; a key whose reconciles end in RequeueAfter never "succeeds" in
// controller-runtime's terms (its result is requeue_after), and "-" alone
// read as "never worked".
func LastSuccessText(k api.Key, now time.Time) string {
	if k.LastSuccessAt.IsZero() && k.TotalFailures == 0 && k.Reconciles > 0 && k.DelaySource == api.SourceRequeueAfter {
		return "- (no error in " + text.Plural(k.Reconciles, "reconcile") + "; the last asked for RequeueAfter)"
	}
	return text.Ago(k.LastSuccessAt, now)
}
