package why

import "fmt"

// debugOnlyFailures corrects what a log without the key says when the
// object itself reports a failed Crossplane sync: the managed reconciler
// logs its failures at debug level only (crossplane-runtime
// pkg/reconciler/managed/reconciler.go: log.Debug, then Requeue: true, no
// "Reconciler error"), so a provider's default log has no line for a key
// that fails on every reconcile — not "it has not failed on it".
func debugOnlyFailures(b *Backoff, v Verdict, c *Controller) *Backoff {
	if b == nil || b.Source != SourceLogs || b.Key != nil || b.NotTracked == "" || v.Override != "crossplane-synced" {
		return b
	}
	out := *b
	out.NotTracked = fmt.Sprintf("the log of %s has no line for it: a Crossplane provider logs a failed sync only when it runs with --debug "+
		"(its Synced condition above says the sync fails); with --debug, kubectl backoff reads each failure and the provider's backoff", c.Target)
	return &out
}
