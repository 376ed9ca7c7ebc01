package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestAskTransientHasNothingToFix: why on the demo's outage key
// (hack/try-cluster.sh, configmap/outage-00001, a 503 the endpoint
// classified transient) said "Fix what the error names: … 503 Service
// Unavailable", where describe of the same key says the backoff is doing
// its job: nothing in the object to fix. A transient error now says so,
// and the retry waits for the dependency; any other still names the fix.
func TestAskTransientHasNothingToFix(t *testing.T) {
	for _, tt := range []struct {
		class, want, not string
	}{
		{api.ClassTransient, "Nothing to fix in the object: what the controller depends on is failing (a transient error: 503 Service Unavailable)", "Fix what the error names"},
		{api.ClassTransient, "Once that is back, retry at once: `kubectl backoff forget", "Then retry at once"},
		{api.ClassPermanent, "Fix what the error names: 503 Service Unavailable", "Nothing to fix"},
	} {
		u := load(t, "flux-kustomization-ready.yaml")
		u.SetGeneration(2)
		managedBy(u, "kubectl-client-side-apply", now.Add(-3*time.Minute), "kustomize-controller")
		cs := fake.NewClientset(deployment("flux-system", "kustomize-controller", "manager"),
			runningPod("flux-system", "kustomize-controller-0", map[string]string{"app": "kustomize-controller"}, true))
		keys := &fakeKeys{endpoint: &Backoff{Source: SourceEndpoint, Controller: "kustomization", ServerTime: now, Requeues: true, Key: &api.Key{
			Controller: "kustomization", Key: "flux-system/flux-system", State: api.StateBackoff, Failures: 17,
			NextRetryAt: now.Add(time.Minute), LastError: &api.ErrorRecord{Message: "503 Service Unavailable", At: now, Class: tt.class},
		}}}
		a := &Asker{Finder: &Finder{Core: cs}, Keys: keys, Now: func() time.Time { return now }}
		next := strings.Join(a.Ask(context.Background(), u, "kustomizations").Next, "\n")
		if !strings.Contains(next, tt.want) || strings.Contains(next, tt.not) {
			t.Errorf("%s error: next steps\n%s\nwant %q, not %q", tt.class, next, tt.want, tt.not)
		}
	}
}
