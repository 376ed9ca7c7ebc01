package why

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestChainSummaryRetryIsTheBlockers: why deployment/web, whose ReplicaSet
// a quota refuses: the retry offered is the ReplicaSet's key (the
// controller backs off on it), and the answer says so, since the user
// asked about the Deployment; nothing is said when the blocker offers no
// retry.
func TestChainSummaryRetryIsTheBlockers(t *testing.T) {
	rsObj := Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "q", Name: "web-1", Key: "q/web-1"}
	rsNode := &Node{Object: rsObj, Via: "owner reference", Status: InProgress, Line: "ReplicaFailure=True: exceeded quota: q", Blocker: true}
	rs := &Answer{Object: rsObj, Summary: `InProgress: the replicaset-controller is failing on it.`,
		Next: []string{"Then retry at once: kubectl backoff kick --kind ReplicaSet.apps q/web-1"},
		Backoff: &Backoff{Source: SourceLogs, Controller: "replicaset-controller", RetryNow: "kubectl backoff kick --kind ReplicaSet.apps q/web-1",
			Key: &api.Key{Key: "q/web-1", State: api.StateBackoff}}}
	a := &Answer{Object: Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "q", Name: "web", Key: "q/web"},
		Verdict: Verdict{Status: InProgress}, Blockers: []*Answer{rs},
		Chain: &Chain{Root: &Node{Status: InProgress, Below: []*Node{rsNode}}}}
	_, next := chainSummary(a)
	want := "That retry is replicaset.apps/web-1's (key q/web-1), not deployment.apps/web's: the replicaset-controller backs off on the key that fails, and deployment.apps/web follows once it succeeds; nothing done to deployment.apps/web resets that backoff."
	if len(next) < 3 || next[2] != want {
		t.Errorf("next %q;\nwant after the ReplicaSet's retry %q", next, want)
	}
	rs.Backoff.RetryNow = ""
	if _, next := chainSummary(a); strings.Contains(strings.Join(next, "\n"), "That retry is") {
		t.Errorf("no retry offered, yet: %q", next)
	}
}
