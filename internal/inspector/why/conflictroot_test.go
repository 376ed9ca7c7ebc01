package why

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestConflictIsNotTheBlocker: a Deployment whose ReplicaSet a quota
// refuses, the quota raised since; kube-controller-manager's log
// (testdata/logs/kcm-deployment-conflict-quota.log: the ReplicaSet's 16
// refusals, then the deployment controller's own optimistic-concurrency
// conflict, its line verbatim from a real v1.37.2 run) says the
// Deployment's key last failed on "the object has been modified", after
// the ReplicaSet's last refusal. A newcomer on a real kcm was told "Your
// change … came after the last failure (the conflict's time) … kick
// --kind Deployment.apps", with the Deployment's key and that conflict as
// the backoff. A conflict is resolved by its retry: the answer's backoff,
// last failure and kick are the ReplicaSet's.
func TestConflictIsNotTheBlocker(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised.yaml")
	u.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: kcmManager, Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status",
		Time: &metav1.Time{Time: time.Date(2016, 10, 4, 12, 29, 10, 0, time.UTC)}, FieldsType: "FieldsV1",
		FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:conditions":{}}}`)}}})
	a.Now = func() time.Time { return time.Date(2016, 10, 4, 12, 31, 2, 0, time.UTC) }
	a.FromLog = savedLog(t, "testdata/logs/kcm-deployment-conflict-quota.log", "kcm.log", kcmManager)
	ans := a.Ask(context.Background(), u, "deployments")
	all := ans.Summary + "\n" + strings.Join(ans.Next, "\n")
	if ans.Retry != nil {
		t.Errorf("the Deployment's own retry %q; a conflict is resolved by its retry", ans.Retry.Sentence)
	}
	for _, not := range []string{"kick --kind Deployment.apps", "(12:29:10)"} {
		if strings.Contains(all, not) {
			t.Errorf("answer says %q:\n%s", not, all)
		}
	}
	if want := "`kubectl backoff kick --kind ReplicaSet.apps default/nginx-deployment-4262182780`"; !strings.Contains(all, want) {
		t.Errorf("answer lacks the ReplicaSet's kick %s:\n%s", want, all)
	}
	// why -w: the wait is the ReplicaSet's retry after the change, said once,
	// not the borrowed backoff as the Deployment's "next retry".
	if _, say := retryWait(ans, a.Now()); !strings.HasPrefix(say, "waits only for a retry: the change to resourcequota/object-counts") {
		t.Errorf("watch says %q; want it to wait only for the ReplicaSet's retry", say)
	}
	b := ans.Backoff
	if b == nil || b.Key == nil || b.Key.Key != "default/nginx-deployment-4262182780" || b.Controller != "replicaset-controller" || b.Key.Failures != 16 {
		t.Errorf("backoff %+v; want the ReplicaSet's key, its 16 failures, controller replicaset-controller", b)
	} else if !strings.Contains(b.Note, "conflict") {
		t.Errorf("backoff note %q; want it to say the Deployment's own key failed only on a conflict", b.Note)
	}
}

// TestConflictIsNoLastFailure: the Deployment's own key, whose last error
// is the deployment controller's conflict (its message verbatim from
// testdata/kcm/replicaset-quota-raised-v4.log), and a quota changed after
// it: no "Your change … came after the last failure (the conflict)", no
// kick of the Deployment. The same key failing on the quota does.
func TestConflictIsNoLastFailure(t *testing.T) {
	const conflict = `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`
	at := time.Date(2026, 12, 8, 1, 48, 12, 0, time.UTC)
	n := &Node{Object: Object{Kind: "Deployment", APIVersion: "apps/v1", Namespace: "q3", Name: "web", Key: "q3/web"},
		Below: []*Node{{Object: Object{Kind: "ResourceQuota", APIVersion: "v1", Namespace: "q3", Name: "q"}, Named: true, Status: Current,
			Changed: &Change{Manager: "kubectl-edit", Time: at.Add(time.Minute)}}}}
	for _, tc := range []struct {
		msg  string
		want bool
	}{{conflict, false}, {`pods "web-5fc9f4bf66-26t7q" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`, true}} {
		x := &Answer{Object: n.Object, Now: at.Add(2 * time.Minute), Backoff: &Backoff{Source: SourceLogs, Controller: "deployment-controller",
			Key: &api.Key{Key: "q3/web", State: api.StateUnknown, Failures: 1, LastReconcileAt: at, LastError: &api.ErrorRecord{Message: tc.msg, At: at}}}}
		if r := retryOf(x, n, "kubectl backoff"); (r != nil) != tc.want {
			t.Errorf("last error %q: retry %+v; want one: %v", tc.msg, r, tc.want)
		}
	}
}
