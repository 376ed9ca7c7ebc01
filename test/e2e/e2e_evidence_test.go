//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// testPodSecurityJob: a Job in a namespace that enforces the restricted
// PodSecurity level has every pod refused; kstatus calls it Current ("Job
// in progress"), its recurring FailedCreate events say it is not.
func testPodSecurityJob(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, kc *kubectl, admin string, askers []asker) {
	const ns = "psa"
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
		Labels: map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}}})
	tenantSees(ctx, t, cs, ns)
	mustCreate(ctx, t, c, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "migrate", Namespace: ns},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "migrate", Image: "example.invalid/migrate:1"}}}}}})
	eventually(t, time.Minute, "the job controller's pods are refused twice", func(ctx context.Context) error {
		n, _, err := eventsOf(ctx, cs, ns, "migrate", "FailedCreate")
		if err != nil || n < 2 {
			return fmt.Errorf("%d FailedCreate (%v)", n, err)
		}
		return nil
	})
	for _, ask := range askers {
		a := ask.answer(t, "job/migrate", "-n", ns)
		v := a.Verdict
		// kstatus says Current once the controller wrote startTime ("Job in
		// progress"), InProgress before ("Job not started"): either way the
		// events are said, and override a Current.
		ev := strings.Join(v.Evidence, "\n")
		if v.Status == why.Current || (v.KStatus == why.Current && v.Override != "failure-events") ||
			!strings.Contains(ev, "FailedCreate events since the last change") || !strings.Contains(ev, "violates PodSecurity") {
			t.Errorf("%s: verdict %s (%s, kstatus %s): %q; want not Current, from its FailedCreate events", ask.name, v.Status, v.Override, v.KStatus, v.Evidence)
		}
		assertPodSecurityFix(t, ask.name, strings.Join(a.Next, "\n"), ns, "migrate")
	}
	out := kc.ok(t, admin, "backoff", "why", "job/migrate", "-n", ns)
	t.Logf("why job/migrate -n %s:\n%s", ns, out)
	assertPodSecurityFix(t, "why job/migrate", out, ns, "migrate")
	assertPrivilegedJob(ctx, t, cs, c, kc, admin, ns, askers) // e2e_why21_test.go
	out = kc.ok(t, admin, "backoff", "why", "jobs", "-n", ns)
	t.Logf("why jobs -n %s:\n%s", ns, out)
	if !strings.Contains(out, "migrate") {
		t.Errorf("why jobs does not list the refused Job")
	}
}

// testMissingTargets: an HPA whose target Deployment does not exist (its
// own AbleToScale=False says so, kstatus calls it Current) and a claim
// naming a StorageClass that does not exist (its ProvisioningFailed event
// names it): each answer names the missing object to create.
func testMissingTargets(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, kc *kubectl, admin string, askers []asker) {
	const ns = "missing"
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	tenantSees(ctx, t, cs, ns)
	mustCreate(ctx, t, c, &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MaxReplicas: 3,
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}}})
	fast := "fast"
	mustCreate(ctx, t, c, &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: ns},
		Spec: corev1.PersistentVolumeClaimSpec{StorageClassName: &fast, AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}}})
	eventually(t, time.Minute, "the HPA controller fails to get the scale, the binder to provision", func(ctx context.Context) error {
		h, err := cs.AutoscalingV2().HorizontalPodAutoscalers(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		able := false
		for _, cond := range h.Status.Conditions {
			able = able || cond.Type == autoscalingv2.AbleToScale && cond.Status == corev1.ConditionFalse
		}
		sel := fields.Set{"involvedObject.name": "data", "reason": "ProvisioningFailed"}.AsSelector().String()
		l, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: sel})
		if err != nil || !able || len(l.Items) == 0 {
			return fmt.Errorf("HPA conditions %+v; %d ProvisioningFailed (%v)", h.Status.Conditions, len(l.Items), err)
		}
		return nil
	})

	for _, ask := range askers {
		a := ask.answer(t, "hpa/web", "-n", ns)
		if a.Verdict.Status == why.Current || a.Verdict.Override != "failure-condition" {
			t.Errorf("%s: HPA verdict %s (%s): %q; want not Current from AbleToScale=False", ask.name, a.Verdict.Status, a.Verdict.Override, a.Verdict.Message)
		}
		if b := a.Chain.Blockers(); len(b) != 1 || b[0].Object.Ref() != "deployment.apps/web" || b[0].Status != why.NotFound {
			t.Errorf("%s: HPA blockers %+v; want deployment.apps/web, missing", ask.name, b)
		}

		a = ask.answer(t, "pvc/data", "-n", ns)
		if b := a.Chain.Blockers(); len(b) != 1 || b[0].Object.Ref() != "storageclass.storage.k8s.io/fast" || b[0].Status != why.NotFound {
			t.Errorf("%s: PVC blockers %+v (summary %q); want storageclass.storage.k8s.io/fast, missing", ask.name, b, a.Summary)
		}
		if next := strings.Join(a.Next, "\n"); !strings.Contains(next, "Create storageclass.storage.k8s.io/fast") || strings.Contains(next, "installed") {
			t.Errorf("%s: PVC next %q; want the StorageClass created", ask.name, next)
		}
	}
	assertUnclassedClaim(t, cs, kc, admin, ns, askers)
	assertClaimWaitsForProvisioner(ctx, t, cs, c, kc, admin, ns, askers) // e2e_why21_test.go
	t.Logf("why hpa/web:\n%s", kc.ok(t, admin, "backoff", "why", "hpa/web", "-n", ns))
	t.Logf("why pvc/data:\n%s", kc.ok(t, admin, "backoff", "why", "pvc/data", "-n", ns))
}
