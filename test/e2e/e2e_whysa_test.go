//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// The missing-ServiceAccount case: a Deployment whose pods name a
// ServiceAccount nobody created. The ServiceAccount admission plugin (on:
// see startAPIServer) refuses every pod the replicaset controller makes
// with `error looking up service account sa/api-sa: serviceaccount "api-sa"
// not found`.
const (
	saNamespace  = "sa"
	saDeployment = "api"
	saName       = "api-sa"
)

// createMissingServiceAccount creates the Deployment, early: its
// ReplicaSet's backoff grows while the quota case runs.
func createMissingServiceAccount(ctx context.Context, t *testing.T, c client.Client) {
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: saNamespace}})
	labels := map[string]string{"app": saDeployment}
	mustCreate(ctx, t, c, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: saDeployment, Namespace: saNamespace},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{ServiceAccountName: saName, Containers: []corev1.Container{{Name: "api", Image: "example.invalid/api:1"}}}}}})
}

// testMissingServiceAccount: `why deployment/api` names the ServiceAccount
// as missing and the blocker, from the pod's log and (hidden) from the
// log file; the ServiceAccount created after the last failure, `why` says
// the replicaset controller sees it at its next retry and gives the kick,
// which brings the pod.
func testMissingServiceAccount(ctx context.Context, t *testing.T, kc *kubectl, admin string, cs kubernetes.Interface, c client.Client,
	answer, hidden func(t *testing.T, args ...string) *why.Answer, hiddenText func(t *testing.T, args ...string) string) {
	var rs string
	eventually(t, time.Minute, "the replicaset controller fails on the ServiceAccount", func(ctx context.Context) error {
		l, err := cs.AppsV1().ReplicaSets(saNamespace).List(ctx, metav1.ListOptions{})
		if err != nil || len(l.Items) == 0 {
			return fmt.Errorf("no ReplicaSet yet (%v)", err)
		}
		for _, cond := range l.Items[0].Status.Conditions {
			if cond.Type == appsv1.ReplicaSetReplicaFailure && strings.Contains(cond.Message, `serviceaccount "`+saName+`" not found`) {
				rs = l.Items[0].Name
				return nil
			}
		}
		return fmt.Errorf("ReplicaSet %s conditions %+v", l.Items[0].Name, l.Items[0].Status.Conditions)
	})
	for mode, ask := range map[string]func(t *testing.T, args ...string) *why.Answer{"pod": answer, "hidden, --from-logs": hidden} {
		a := ask(t, "deployment/"+saDeployment, "-n", saNamespace)
		bs := a.Chain.Blockers()
		if len(bs) == 0 || bs[0].Object.Kind != "ServiceAccount" || bs[0].Object.Name != saName || bs[0].Status != why.NotFound {
			t.Fatalf("%s: blockers %+v; want serviceaccount/%s NotFound (summary %q)", mode, bs, saName, a.Summary)
		}
		if p := a.Chain.Path(bs[0]); len(p) != 3 || p[1].Object.Kind != "ReplicaSet" || p[1].Object.Name != rs {
			t.Errorf("%s: path %+v; want deployment → replicaset %s → the ServiceAccount", mode, p, rs)
		}
		if next := strings.Join(a.Next, "\n"); !strings.Contains(next, "serviceaccount/"+saName) {
			t.Errorf("%s: next %q; want the ServiceAccount to create", mode, next)
		}
		if len(a.Blockers) != 1 || a.Blockers[0].Backoff == nil || a.Blockers[0].Backoff.Key == nil || a.Blockers[0].Backoff.Controller != "replicaset-controller" {
			t.Errorf("%s: blockers' answers %+v; want the ReplicaSet's, its backoff read by the replicaset-controller's log", mode, a.Blockers)
		}
	}
	out := kc.ok(t, admin, "backoff", "why", "deployment/"+saDeployment, "-n", saNamespace)
	t.Logf("why deployment/%s (ServiceAccount missing):\n%s", saDeployment, out)
	for _, want := range []string{"serviceaccount/" + saName, "does not exist", "<- blocker"} {
		if !strings.Contains(out, want) {
			t.Errorf("why lacks %q", want)
		}
	}

	awaitQuiet(t, cs, saNamespace, rs)
	if _, err := cs.CoreV1().ServiceAccounts(saNamespace).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: saName, Namespace: saNamespace}},
		metav1.CreateOptions{FieldManager: "kubectl-create"}); err != nil {
		t.Fatal(err)
	}
	created := time.Now()
	kick := "kubectl backoff kick --kind ReplicaSet.apps " + saNamespace + "/" + rs
	for mode, ask := range map[string]func(t *testing.T, args ...string) *why.Answer{"pod": answer, "hidden, --from-logs": hidden} {
		a := ask(t, "deployment/"+saDeployment, "-n", saNamespace)
		if len(a.Blockers) != 1 || a.Blockers[0].Retry == nil {
			t.Fatalf("%s: blockers' answers %+v, next %q; want the ReplicaSet's, with the retry sentence", mode, a.Blockers, a.Next)
		}
		r := a.Blockers[0].Retry
		for _, want := range []string{"Your change to serviceaccount/" + saName + " at ", "came after the last failure",
			"The replicaset-controller does not watch ServiceAccounts: it will see the change at its next retry", "from its log", "Retry now: `" + kick + "`"} {
			if !strings.Contains(r.Sentence, want) {
				t.Errorf("%s: sentence %q lacks %q", mode, r.Sentence, want)
			}
		}
		if r.Watches != "no" || r.NextRetry.IsZero() {
			t.Errorf("%s: retry %+v; want watches no, a next retry", mode, r)
		}
	}
	if pods, _ := cs.CoreV1().Pods(saNamespace).List(ctx, metav1.ListOptions{}); len(pods.Items) != 0 {
		t.Fatalf("%d pods before the kick: the controller retried already", len(pods.Items))
	}
	out = kc.ok(t, admin, "backoff", "why", "deployment/"+saDeployment, "-n", saNamespace)
	t.Logf("why deployment/%s (ServiceAccount created):\n%s", saDeployment, out)
	out = hiddenText(t, "deployment/"+saDeployment, "-n", saNamespace)
	t.Logf("why deployment/%s --from-logs, as the tenant (ServiceAccount created):\n%s", saDeployment, out)
	for _, want := range []string{"Your change to serviceaccount/" + saName, "Retry now: `" + kick + "`", "has no pod you can see", "its log is read from ", "the file you gave", "Note:           read from "} {
		if !strings.Contains(out, want) {
			t.Errorf("why --from-logs lacks %q", want)
		}
	}
	if strings.Contains(out, "its log cannot be read") || strings.Contains(out, "--controller-pod") {
		t.Errorf("why --from-logs says the log it read cannot be read, or asks for the pods it does not need")
	}
	// why -w follows it: the first answer says it waits only for a retry;
	// the kick's effect is appended, not redrawn.
	watch := startWhyWatch(t, kc, admin, "deployment/"+saDeployment, "-n", saNamespace)
	if first := watch.out.String(); !strings.Contains(first, "Watching: it waits only for a retry: the change to serviceaccount/"+saName+" is seen at the replicaset-controller's next retry") {
		t.Errorf("why -w's first answer does not say it waits only for a retry:\n%s", first)
	}
	kc.ok(t, admin, strings.Fields(strings.TrimPrefix(kick, "kubectl "))...)
	eventually(t, 15*time.Second, "the kicked ReplicaSet creates its pod", func(ctx context.Context) error {
		pods, err := cs.CoreV1().Pods(saNamespace).List(ctx, metav1.ListOptions{})
		if err != nil || len(pods.Items) != 1 {
			return fmt.Errorf("%d pods (%v)", len(pods.Items), err)
		}
		return nil
	})
	t.Logf("pod %v after the ServiceAccount was created", time.Since(created).Round(time.Millisecond))
	eventually(t, 30*time.Second, "why -w appends the answer after the kick", func(context.Context) error {
		out := watch.out.String()
		if i := strings.Index(out, "\nWatching: "); i < 0 || !strings.Contains(out[i:], "  changed  ") || strings.Count(out, "Object:      deployment.apps/"+saDeployment) != 1 {
			return fmt.Errorf("no appended answer yet (or the whole answer printed again):\n%s", out)
		}
		return nil
	})
	watch.interrupt(t)
	t.Logf("why -w deployment/%s:\n%s", saDeployment, watch.out.String())
}
