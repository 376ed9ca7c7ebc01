package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// quotaAsker asks about the documentation's nginx-deployment under the
// quota its failure names; the ReplicaSet's FailedCreate series is built
// (18 failures from 12:25:39 to 12:30:00).
func quotaAsker(t *testing.T, files ...string) (*Asker, *unstructured.Unstructured) {
	t.Helper()
	g := graphOf(t, append([]string{"deployment-replicafailure.yaml"}, files...)...)
	u := load(t, "deployment-replicafailure.yaml")
	u.SetUID("4c0f7b3e-2f0a-4f4e-8e5e-000000000001")
	at := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339, s); return tm }
	events := func(_ context.Context, x *unstructured.Unstructured) ([]objstatus.Event, error) {
		if x.GetKind() != "ReplicaSet" {
			return nil, nil
		}
		return []objstatus.Event{{Type: "Warning", Reason: "FailedCreate", Count: 18, FirstSeen: at("2016-10-04T12:25:39Z"), LastSeen: at("2016-10-04T12:30:00Z"),
			Message: `Error creating: pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`}}, nil
	}
	return &Asker{Graph: g, Events: events, Now: func() time.Time { return at("2016-10-04T12:31:10Z") }}, u
}

// TestBlockerQuotaFull: the quota the failure names is the blocker, with
// its numbers, and the advice is to change it, not the Deployment.
func TestBlockerQuotaFull(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts.yaml")
	ans := a.Ask(context.Background(), u, "deployments")
	b := ans.Chain.Blockers()
	if len(b) != 1 || b[0].Object.Ref() != "resourcequota/object-counts" || b[0].Status != Refusing {
		t.Fatalf("blockers %v; want resourcequota/object-counts Refusing\n%s", blockerRefs(ans.Chain), treeText(ans.Chain.Root, ""))
	}
	if want := "exceeded: pods: used 3 of hard 2, 1 requested"; b[0].Line != want {
		t.Errorf("line %q; want %q", b[0].Line, want)
	}
	path := ans.Chain.Path(b[0])
	if len(path) != 3 || path[1].Object.Kind != "ReplicaSet" {
		t.Errorf("path %v; want the quota under the ReplicaSet it refused", path)
	}
	next := strings.Join(ans.Next, "\n")
	if !strings.Contains(next, "Change resourcequota/object-counts -n default, not the object: exceeded: pods: used 3 of hard 2") {
		t.Errorf("next %q lacks the change to the quota", next)
	}
	if ans.Retry != nil || len(ans.Blockers) != 1 || ans.Blockers[0].Object.Kind != "ReplicaSet" || ans.Blockers[0].Retry != nil {
		t.Errorf("retry %+v, blockers' answers %+v: want the refused ReplicaSet answered, no retry (the quota is still full)", ans.Retry, ans.Blockers)
	}
}

// TestRetryAfterQuotaRaised is the sentence the tool is named for: the quota
// raised after the ReplicaSet's last failure; the replicaset-controller
// does not watch ResourceQuotas (kcm.go, from its source), so the change
// waits for the retry its backoff schedules, estimated from the events.
func TestRetryAfterQuotaRaised(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised.yaml")
	ans := a.Ask(context.Background(), u, "deployments")
	if len(ans.Blockers) != 1 || ans.Blockers[0].Retry == nil {
		t.Fatalf("blockers' answers %+v; want the ReplicaSet's, with a retry\n%s", ans.Blockers, treeText(ans.Chain.Root, ""))
	}
	// 18th failure: 5ms·2^17 = 10m55.36s after 12:30:00, at 12:40:55; now 12:31:10.
	want := "Your change to resourcequota/object-counts at 12:31:00 came after the last failure (12:30:00). " +
		"The replicaset-controller does not watch ResourceQuotas: it will see the change at its next retry, in about 9m45s " +
		"(18 failures, backing off ~10m55s, estimated from the object's events: 18 failures since 12:25:39, its queue doubles the delay from 5ms up to 16m40s). " +
		"Retry now: `kubectl backoff kick --kind ReplicaSet.apps default/nginx-deployment-4262182780`"
	if got := ans.Blockers[0].Retry.Sentence; got != want {
		t.Errorf("sentence\n%s\nwant\n%s", got, want)
	}
	if len(ans.Next) == 0 || ans.Next[0] != want {
		t.Errorf("next %q; want the sentence first", ans.Next)
	}
}

// TestRetryUnknownController: without kube-controller-manager's status
// manager, whether the controller watches quotas is unknown, said so, and
// the delay is the series' own span (a doubling backoff's next wait).
func TestRetryUnknownController(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota.yaml", "chain/resourcequota-object-counts-raised.yaml")
	ans := a.Ask(context.Background(), u, "deployments")
	if len(ans.Blockers) != 1 || ans.Blockers[0].Retry == nil {
		t.Fatalf("blockers' answers %+v; want a retry", ans.Blockers)
	}
	s := ans.Blockers[0].Retry.Sentence
	for _, w := range []string{"Whether its controller watches ResourceQuotas is not known", "backing off ~4m21s", "if its backoff doubles", "kick --kind ReplicaSet.apps"} {
		if !strings.Contains(s, w) {
			t.Errorf("sentence %q lacks %q", s, w)
		}
	}
}

// TestRetryNeedsTheLastFailure: with no failure series and no backoff
// read, when the last failure was is unknown: no sentence claims the
// change came after it.
func TestRetryNeedsTheLastFailure(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised.yaml")
	a.Events = nil
	ans := a.Ask(context.Background(), u, "deployments")
	for _, b := range ans.Blockers {
		if b.Retry != nil {
			t.Errorf("retry %q; want none", b.Retry.Sentence)
		}
	}
}

// TestRetryBesideAPendingPod: the quota raised after the ReplicaSet's last
// failure, while one pod it did create is still Pending. The pod is the
// chain's deepest object not Current, but the user's change waits on the
// ReplicaSet's retry: the answer says so first, with the kick, whether
// asked of the Deployment or of the ReplicaSet (a real
// kube-controller-manager: the quota raised, why said only "it waits for
// pod/…, Pending", and the kick that worked in 3 s went unsaid).
func TestRetryBesideAPendingPod(t *testing.T) {
	a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised.yaml", "chain/pod-pending-nginx.yaml")
	kick := "Retry now: `kubectl backoff kick --kind ReplicaSet.apps default/nginx-deployment-4262182780`"
	ans := a.Ask(context.Background(), u, "deployments")
	if len(ans.Blockers) == 0 || ans.Blockers[0].Retry == nil {
		t.Fatalf("blockers' answers %+v; want the ReplicaSet's first, with a retry\n%s", ans.Blockers, treeText(ans.Chain.Root, ""))
	}
	if len(ans.Next) == 0 || !strings.HasPrefix(ans.Next[0], "Your change to resourcequota/object-counts at 12:31:00 came after the last failure") || !strings.HasSuffix(ans.Next[0], kick) {
		t.Errorf("next %q; want the retry's sentence first, with the kick", ans.Next)
	}
	// The ReplicaSet is said once: its retry, then its Pending pod below
	// it; not again as the pod's path ("; and for replicaset.apps/…").
	if want := "it waits for replicaset.apps/nginx-deployment-4262182780 (owner reference), whose controller has not retried it since your change to resourcequota/object-counts, " +
		"and waits for pod/nginx-deployment-4262182780-7x2kq (owner reference), which is InProgress: Pending."; !strings.HasSuffix(ans.Summary, want) {
		t.Errorf("summary %q; want it to end %q", ans.Summary, want)
	}
	if n := strings.Count(ans.Summary, "replicaset.apps/nginx-deployment-4262182780"); n != 1 {
		t.Errorf("summary %q names the ReplicaSet %d times; want once", ans.Summary, n)
	}

	rs := load(t, "chain/replicaset-quota-kcm.yaml")
	ans = a.Ask(context.Background(), rs, "replicasets")
	if ans.Retry == nil || !strings.HasSuffix(ans.Retry.Sentence, kick) {
		t.Fatalf("the ReplicaSet's own retry %+v; want one, with the kick\n%s", ans.Retry, treeText(ans.Chain.Root, ""))
	}
	if len(ans.Next) == 0 || ans.Next[0] != ans.Retry.Sentence {
		t.Errorf("next %q; want the retry's sentence first", ans.Next)
	}
	if want := "it waits for its controller's next retry, not made since your change to resourcequota/object-counts; and for pod/"; !strings.Contains(ans.Summary, want) {
		t.Errorf("summary %q lacks %q", ans.Summary, want)
	}
}
