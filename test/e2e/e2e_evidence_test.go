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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// testPodSecurityJob: a Job in a namespace that enforces the restricted
// PodSecurity level has every pod refused; kstatus calls it Current ("Job
// in progress"), its recurring FailedCreate events say it is not.
func testPodSecurityJob(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, kc *kubectl, admin string,
	answer func(t *testing.T, args ...string) *why.Answer) {
	const ns = "psa"
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
		Labels: map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}}})
	mustCreate(ctx, t, c, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "migrate", Namespace: ns},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "migrate", Image: "example.invalid/migrate:1"}}}}}})
	eventually(t, time.Minute, "the job controller's pods are refused twice", func(ctx context.Context) error {
		sel := fields.Set{"involvedObject.name": "migrate", "reason": "FailedCreate"}.AsSelector().String()
		l, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: sel})
		var n int32
		for _, e := range l.Items {
			n += max(e.Count, 1)
		}
		if err != nil || n < 2 {
			return fmt.Errorf("%d FailedCreate (%v)", n, err)
		}
		return nil
	})
	a := answer(t, "job/migrate", "-n", ns)
	v := a.Verdict
	// kstatus says Current once the controller wrote startTime ("Job in
	// progress"), InProgress before ("Job not started"): either way the
	// events are said, and override a Current.
	ev := strings.Join(v.Evidence, "\n")
	if v.Status == why.Current || (v.KStatus == why.Current && v.Override != "failure-events") ||
		!strings.Contains(ev, "FailedCreate events since the last change") || !strings.Contains(ev, "violates PodSecurity") {
		t.Errorf("verdict %s (%s, kstatus %s): %q; want not Current, from its FailedCreate events", v.Status, v.Override, v.KStatus, v.Evidence)
	}
	out := kc.ok(t, admin, "backoff", "why", "jobs", "-n", ns)
	t.Logf("why jobs -n %s:\n%s", ns, out)
	if !strings.Contains(out, "migrate") {
		t.Errorf("why jobs does not list the refused Job")
	}
}
