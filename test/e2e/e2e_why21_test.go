//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// assertPrivilegedJob: a Job with a privileged container in namespace ns,
// which enforces restricted. Baseline refuses privileged too, so the
// relabel names privileged, after the template's change, never baseline
// (a newcomer on a real kube-controller-manager was told baseline).
func assertPrivilegedJob(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, kc *kubectl, admin, ns string, askers []asker) {
	t.Helper()
	yes := true
	mustCreate(ctx, t, c, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "priv", Namespace: ns},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "priv", Image: "example.invalid/priv:1", SecurityContext: &corev1.SecurityContext{Privileged: &yes}}}}}}})
	eventually(t, time.Minute, "the privileged Job's pods are refused twice", func(ctx context.Context) error {
		if n, _, err := eventsOf(ctx, cs, ns, "priv", "FailedCreate"); err != nil || n < 2 {
			return fmt.Errorf("%d FailedCreate (%v)", n, err)
		}
		return nil
	})
	label := "`kubectl label namespace " + ns + " pod-security.kubernetes.io/enforce=privileged --overwrite`"
	check := func(who, next string) {
		for _, want := range []string{`container "priv" must not set securityContext.privileged=true`, label, "kick --kind Job.batch " + ns + "/priv"} {
			if !strings.Contains(next, want) {
				t.Errorf("%s: next\n%s\nlacks %q", who, next, want)
			}
		}
		if strings.Contains(next, "enforce=baseline") {
			t.Errorf("%s: next\n%s\nnames baseline, which refuses privileged too", who, next)
		}
	}
	for _, ask := range askers {
		check(ask.name, strings.Join(ask.answer(t, "job/priv", "-n", ns).Next, "\n"))
	}
	out := kc.ok(t, admin, "backoff", "why", "job/priv", "-n", ns)
	t.Logf("why job/priv -n %s:\n%s", ns, out)
	check("why job/priv", out)
}

// assertClaimWaitsForProvisioner: a claim naming a StorageClass whose
// provisioner (example.com/nfs) nothing runs: kube-controller-manager's
// binder annotates it and records ExternalProvisioning; the answer names
// the provisioner, not "the controller of kind PersistentVolumeClaim".
func assertClaimWaitsForProvisioner(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, kc *kubectl, admin, ns string, askers []asker) {
	t.Helper()
	const class, claim = "nfs", "nfs-data"
	_, err := cs.StorageV1().StorageClasses().Create(ctx, &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: class}, Provisioner: "example.com/nfs"}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create storageclass %s: %v", class, err)
	}
	name := class
	mustCreate(ctx, t, c, &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: claim, Namespace: ns},
		Spec: corev1.PersistentVolumeClaimSpec{StorageClassName: &name, AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}}})
	eventually(t, time.Minute, "the binder waits for the external provisioner", func(ctx context.Context) error {
		if n, _, err := eventsOf(ctx, cs, ns, claim, "ExternalProvisioning"); err != nil || n < 1 {
			return fmt.Errorf("%d ExternalProvisioning (%v)", n, err)
		}
		return nil
	})
	for _, ask := range askers {
		a := ask.answer(t, "pvc/"+claim, "-n", ns)
		all := a.Summary + "\n" + strings.Join(a.Next, "\n")
		if !strings.Contains(a.Summary, "it waits for provisioner example.com/nfs") || strings.Contains(all, "kind PersistentVolumeClaim is installed") {
			t.Errorf("%s: answer\n%s\nwant the provisioner example.com/nfs named, not a controller of the claim's kind", ask.name, all)
		}
	}
	t.Logf("why pvc/%s:\n%s", claim, kc.ok(t, admin, "backoff", "why", "pvc/"+claim, "-n", ns))
}
