package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestQuotaRaisedAndUsed: the quota raised after the refusal and the pods
// created since; the Deployment's ReplicaFailure still says the first
// failure (kube-controller-manager's deployment controller copies the
// ReplicaSet's condition, and clears it a moment later). The quota's use
// now counts those pods: "used 4 of hard 4, 1 requested" is not a refusal,
// and "Change resourcequota/object-counts" is not the advice (a real
// kube-controller-manager, quota pods 0 → 2, said both).
func TestQuotaRaisedAndUsed(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-created.yaml", "chain/resourcequota-object-counts-raised-used.yaml")
	a.Events = nil
	ans := a.Ask(context.Background(), u, "deployments")
	quota := findNode(ans.Chain.Root, "resourcequota/object-counts")
	if quota == nil {
		t.Fatalf("no quota in the chain\n%s", treeText(ans.Chain.Root, ""))
	}
	if want := "raised since it refused: pods: hard 2 then, 4 now: room for the 1 requested at used 3 (used 4 now)"; quota.Status == Refusing || quota.Line != want {
		t.Errorf("quota %s: %q; want not Refusing: %q", quota.Status, quota.Line, want)
	}
	if all := ans.Summary + "\n" + strings.Join(ans.Next, "\n"); strings.Contains(all, "Change resourcequota") || strings.Contains(all, "refuses it") {
		t.Errorf("the raised quota is still the fix:\n%s", all)
	}
}

// TestQuotaRefusedAgain: a ReplicaSet's ReplicaFailure keeps its first
// failure's numbers (limited pods=2), its FailedCreate events say the
// quota refuses again at its new limit (4): the quota is judged by the
// newest refusal, Refusing, not "raised since".
func TestQuotaRefusedAgain(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised-used.yaml")
	at := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339, s); return tm }
	a.Events = func(_ context.Context, x *unstructured.Unstructured) ([]objstatus.Event, error) {
		if x.GetKind() != "ReplicaSet" {
			return nil, nil
		}
		return []objstatus.Event{{Type: "Warning", Reason: "FailedCreate", Count: 3, FirstSeen: at("2016-10-04T12:31:02Z"), LastSeen: at("2016-10-04T12:31:08Z"),
			Message: `Error creating: pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=4, limited: pods=4`}}, nil
	}
	ans := a.Ask(context.Background(), u, "deployments")
	quota := findNode(ans.Chain.Root, "resourcequota/object-counts")
	if quota == nil || quota.Status != Refusing || quota.Line != "exceeded: pods: used 4 of hard 4, 1 requested" {
		t.Fatalf("quota %+v; want Refusing at its new limit\n%s", quota, treeText(ans.Chain.Root, ""))
	}
}

// findNode is the first node of the tree below n for ref.
func findNode(n *Node, ref string) *Node {
	if n.Object.Ref() == ref && !n.Seen {
		return n
	}
	for _, c := range n.Below {
		if f := findNode(c, ref); f != nil {
			return f
		}
	}
	return nil
}
