package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes/fake"
)

// TestLogNoteStaysWithItsObject: --controller-log kube-controller-manager
// (as README and docs/why.md show) on a Deployment whose ReplicaSet the
// quota refused, one pod of which is Pending. The log is read for the
// Deployment and the ReplicaSet (kube-controller-manager writes their
// status); the Pending pod's status is not kube-controller-manager's (the
// kubelet's, once bound, the scheduler's conditions before), so the log
// is not read for it — and the answers about the Deployment and the
// ReplicaSet do not say "the log was not read for it" of themselves
// (a real kube-controller-manager, newcomer of session 62, item 2).
func TestLogNoteStaysWithItsObject(t *testing.T) {
	a, dep := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised.yaml", "chain/pod-pending-nginx.yaml")
	managedBy(dep, "kubectl-client-side-apply", time.Date(2016, 10, 4, 12, 25, 0, 0, time.UTC), kcmManager)
	a.FromLog = kcmQuotaLog(t, kcmManager)
	a.Finder = &Finder{Core: fake.NewClientset()}
	for _, tc := range []struct {
		file, resource string
	}{{"", "deployments"}, {"chain/replicaset-quota-kcm.yaml", "replicasets"}} {
		u := dep
		if tc.file != "" {
			u = load(t, tc.file)
		}
		ans := a.Ask(context.Background(), u, tc.resource)
		if !strings.Contains(ans.Summary, "pod/nginx-deployment-4262182780-7x2kq") {
			t.Fatalf("%s: summary %q; want the Pending pod in the chain", tc.resource, ans.Summary)
		}
		all := strings.Join(append([]string{ans.Summary}, ans.Next...), "\n")
		if strings.Contains(all, "the log was not read for it") {
			t.Errorf("%s: the answer says the log was not read for it, though it was (its status manager is %s):\n%s", tc.resource, kcmManager, all)
		}
	} // Asked of the pod itself, the note is said, naming the pod.
	pod := load(t, "chain/pod-pending-nginx.yaml")
	ans := a.Ask(context.Background(), pod, "pods")
	want := "nor the status manager of pod/nginx-deployment-4262182780-7x2kq (managedFields name no status manager): the log was not read for it"
	if len(ans.Next) == 0 || !strings.Contains(ans.Next[0], want) {
		t.Errorf("the pod's next %q; want first the note %q", ans.Next, want)
	}
}
