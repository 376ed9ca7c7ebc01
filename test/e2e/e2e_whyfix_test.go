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
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The fixes why names for three of kube-controller-manager's cases, which
// only unit tests checked before: the ReplicaSet that waits on its retry
// beside a Pending pod once the quota is raised (retrywait.go), the claim
// that names no StorageClass (pvcclass.go), the Job whose pods Pod
// Security refuses (podsecurity.go).

// The Pending-pod case: a quota of one pod, a Deployment of two. The
// first pod is created and stays Pending (the tier runs no scheduler), the
// second is refused.
const (
	pendingNamespace = "quota-pending"
	pendingQuota     = "pods"
)

// unclassedClaim is a claim in the missing-targets case's namespace that
// names no StorageClass; none is the default, so the binder keeps
// recording FailedBinding (Normal) on it, every 15 s.
const unclassedClaim = "scratch"

// createFixCases creates the Pending-pod case's Deployment and the claim
// with no StorageClass, early: the ReplicaSet's backoff grows, and the
// binder's FailedBinding events recur, while the other cases run.
func createFixCases(ctx context.Context, t *testing.T, c client.Client, cs kubernetes.Interface) {
	t.Helper()
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "missing"}})
	mustCreate(ctx, t, c, &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: unclassedClaim, Namespace: "missing"},
		Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}}})

	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: pendingNamespace}})
	mustCreate(ctx, t, c, &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: pendingQuota, Namespace: pendingNamespace},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("1")}}})
	// Admission refuses every pod until the quota's status is computed:
	// then exactly one is admitted.
	webUnderQuota(ctx, t, cs, c, pendingNamespace, pendingQuota)
}

// testQuotaPendingPod: the quota raised after the ReplicaSet's last
// failure, while the one pod it created is Pending. The pod is the
// chain's deepest object not Current, yet the user's change waits on the
// ReplicaSet's retry: why says that first, with the kick, and the kick
// brings the second pod.
func testQuotaPendingPod(ctx context.Context, t *testing.T, kc *kubectl, admin string, cs kubernetes.Interface, askers []asker) {
	const ns = pendingNamespace
	tenantSees(ctx, t, cs, ns)
	var rs string
	eventually(t, time.Minute, "one pod Pending, the second refused by the quota", func(ctx context.Context) error {
		l, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(l.Items) == 0 {
			return fmt.Errorf("no ReplicaSet yet (%v)", err)
		}
		pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(pods.Items) != 1 || pods.Items[0].Status.Phase != corev1.PodPending {
			return fmt.Errorf("pods %d, want one Pending (%v)", len(pods.Items), err)
		}
		for _, cond := range l.Items[0].Status.Conditions {
			if cond.Type == appsv1.ReplicaSetReplicaFailure && strings.Contains(cond.Message, "exceeded quota") {
				rs = l.Items[0].Name
				return nil
			}
		}
		return fmt.Errorf("ReplicaSet %s conditions %+v", l.Items[0].Name, l.Items[0].Status.Conditions)
	})
	awaitQuiet(t, cs, ns, rs)
	quota, err := cs.CoreV1().ResourceQuotas(ns).Get(ctx, pendingQuota, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	quota.Spec.Hard[corev1.ResourcePods] = resource.MustParse("2")
	if _, err := cs.CoreV1().ResourceQuotas(ns).Update(ctx, quota, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the resourcequota controller takes the new hard", func(ctx context.Context) error {
		rq, err := cs.CoreV1().ResourceQuotas(ns).Get(ctx, pendingQuota, metav1.GetOptions{})
		if err != nil || rq.Status.Hard.Pods().Value() != 2 {
			return fmt.Errorf("status.hard %v (%v)", rq.Status.Hard, err)
		}
		return nil
	})

	kick := "kubectl backoff kick --kind ReplicaSet.apps " + ns + "/" + rs
	changed := "Your change to resourcequota/" + pendingQuota + " at "
	waits := "replicaset.apps/" + rs + " (owner reference), whose controller has not retried it since your change to resourcequota/" + pendingQuota
	for _, ask := range askers {
		a := ask.answer(t, "deployment/web", "-n", ns)
		if len(a.Blockers) == 0 || a.Blockers[0].Object.Name != rs || a.Blockers[0].Retry == nil {
			t.Fatalf("%s: blockers' answers %+v, next %q; want the ReplicaSet's first, with the retry sentence\n(summary %q)", ask.name, a.Blockers, a.Next, a.Summary)
		}
		r := a.Blockers[0].Retry
		if !strings.Contains(r.Sentence, changed) || !strings.Contains(r.Sentence, "Retry now: `"+kick+"`") || r.Watches != "no" {
			t.Errorf("%s: retry %+v; want the change to the quota, watches no, the kick", ask.name, r)
		}
		// The retry is the answer, not the Pending pod: said first.
		if len(a.Next) == 0 || a.Next[0] != r.Sentence {
			t.Errorf("%s: next %q; want the retry's sentence first", ask.name, a.Next)
		}
		if !strings.Contains(a.Summary, waits) || !strings.Contains(a.Summary, "pod/"+rs+"-") {
			t.Errorf("%s: summary %q; want %q, and the Pending pod beside it", ask.name, a.Summary, waits)
		}
	}
	if pods, _ := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{}); len(pods.Items) != 1 {
		t.Fatalf("%d pods before the kick: the controller retried already", len(pods.Items))
	}
	out := kc.ok(t, admin, "backoff", "why", "deployment/web", "-n", ns)
	t.Logf("why deployment/web -n %s (quota raised, one pod Pending):\n%s", ns, out)
	if !strings.Contains(out, "Retry now: `"+kick+"`") {
		t.Errorf("why lacks the kick")
	}
	kc.ok(t, admin, strings.Fields(strings.TrimPrefix(kick, "kubectl "))...)
	eventually(t, 15*time.Second, "the kicked ReplicaSet creates its second pod", func(ctx context.Context) error {
		pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(pods.Items) != 2 {
			return fmt.Errorf("%d pods (%v)", len(pods.Items), err)
		}
		return nil
	})
}

// assertUnclassedClaim: the claim with no StorageClass, once its
// FailedBinding events recur, is the binder's (not "no controller has
// reconciled this object"), and its fix is the user's, said first: a
// class, a default class, or a matching volume, not a controller to
// install; nor, to the tenant who named kube-controller-manager's log, that
// the log "was not read for it" (the binder's log is kube-controller-
// manager's, though it writes no status on the claim).
func assertUnclassedClaim(t *testing.T, cs kubernetes.Interface, kc *kubectl, admin, ns string, askers []asker) {
	t.Helper()
	eventually(t, time.Minute, "the binder records FailedBinding twice", func(ctx context.Context) error {
		n, _, err := eventsOf(ctx, cs, ns, unclassedClaim, "FailedBinding")
		if err != nil || n < 2 {
			return fmt.Errorf("%d FailedBinding (%v)", n, err)
		}
		return nil
	})
	for _, ask := range askers {
		a := ask.answer(t, "pvc/"+unclassedClaim, "-n", ns)
		if !strings.Contains(a.Summary, "FailedBinding events since the last change") || !strings.Contains(a.Summary, "no storage class is set") {
			t.Errorf("%s: summary %q; want the binder's FailedBinding events", ask.name, a.Summary)
		}
		if c := a.Controller; c == nil || !strings.Contains(c.How, "persistentvolume-binder-controller") || strings.Contains(c.How, "no controller has reconciled") {
			t.Errorf("%s: controller %+v; want the binder named, not \"no controller has reconciled this object\"", ask.name, c)
		}
		// The fix first: the tenant named kube-controller-manager's log,
		// which is the binder's, not a log "not read for it".
		if len(a.Next) == 0 || !strings.HasPrefix(a.Next[0], "The claim names no StorageClass") {
			t.Errorf("%s: next %q; want the user's fix first", ask.name, a.Next)
		}
		next := strings.Join(a.Next, "\n")
		for _, w := range []string{"set spec.storageClassName to a StorageClass", `storageclass.kubernetes.io/is-default-class: "true"`, "create a PersistentVolume that matches the claim"} {
			if !strings.Contains(next, w) {
				t.Errorf("%s: next %q lacks %q", ask.name, next, w)
			}
		}
		if strings.Contains(next, "installed") || strings.Contains(next, "not read for it") {
			t.Errorf("%s: next %q; want nothing about installing a controller, nor the log not read", ask.name, next)
		}
	}
	t.Logf("why pvc/%s:\n%s", unclassedClaim, kc.ok(t, admin, "backoff", "why", "pvc/"+unclassedClaim, "-n", ns))
}

// assertPodSecurityFix: the Job whose pods the namespace's restricted
// level refuses gets Pod Security's two fixes (recreate the Job with a
// template that complies, or relabel the namespace) and the kick, not
// "Fix what the error names": in next, why's steps as JSON joined or its
// words.
func assertPodSecurityFix(t *testing.T, who, next, ns, job string) {
	t.Helper()
	for _, want := range []string{`Namespace ` + ns + ` enforces Pod Security "restricted"`, "allowPrivilegeEscalation != false", "recreate the Job with a pod template that complies",
		"`kubectl label namespace " + ns + " pod-security.kubernetes.io/enforce=baseline --overwrite`", "`kubectl backoff kick --kind Job.batch " + ns + "/" + job + "`"} {
		if !strings.Contains(next, want) {
			t.Errorf("%s: next\n%s\nlacks %q", who, next, want)
		}
	}
	if strings.Contains(next, whyFix) {
		t.Errorf("%s: next\n%s\nsays %q", who, next, whyFix)
	}
}
