package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A key gone quiet in a log that shows successes (Crossplane in debug,
// crossplane/crossplane#4099: "Waiting for external resource existence to
// be confirmed", a Requeue: true, then nothing) is not said to be in a log
// that "does not show its successes", which describe's Source section
// contradicts ("Successes are in this log"); and a count that is a
// Requeue: true, with no error logged, is not "1 failure logged".
func TestExplainUnknownInALogWithSuccesses(t *testing.T) {
	k := api.Key{Key: "sample-bucket", State: api.StateUnknown, Failures: 1, TotalFailures: 0, Reconciles: 1, Source: api.SourceLogs, Estimated: true,
		NextRetryAt: at(-time.Minute), Delay: dur(time.Second), DelaySource: api.SourceItemExponential, LastReconcileAt: at(-time.Minute - time.Second),
		History: []api.Attempt{{At: at(-time.Minute - time.Second), Outcome: api.OutcomeRequeue, Delay: dur(time.Second)}}}
	got := explain.Explain(explain.Input{Key: k, Source: &api.ListSource{Kind: api.SourceLogs, Verbose: true}, Now: explainNow}).Summary
	for _, bad := range []string{"does not show its successes", "not logged at the default verbosity", "1 failure logged"} {
		if strings.Contains(got, bad) {
			t.Errorf("summary says %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{"1 failure counted (the last reconcile returned Requeue: true, not an error)", "This log shows successes, and none of this key since"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary does not say %q:\n%s", want, got)
		}
	}
}
