//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// testWebhookBlocker: a mutating webhook on pods whose service is missing
// (failurePolicy Fail), limited to one namespace; the real API server
// refuses the replicaset controller's pods with `failed calling webhook
// "NAME"`, and `why deployment/hooked` names the configuration that holds
// that webhook as the blocker, with its service missing.
func testWebhookBlocker(ctx context.Context, t *testing.T, kc *kubectl, admin string, cs kubernetes.Interface, c client.Client,
	answer func(t *testing.T, args ...string) *why.Answer) {
	const ns, config, hook = "hooked", "pod-defaults", "pods.defaults.example.com"
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	cfg := &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: config},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{Name: hook,
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: ns, Name: "defaulter"}},
			Rules:                   []admissionregistrationv1.RuleWithOperations{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create}, Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}}}},
			NamespaceSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}},
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"}}}}
	mustCreate(ctx, t, c, cfg)
	t.Cleanup(func() { _ = c.Delete(context.Background(), cfg) })
	labels := map[string]string{"app": "hooked"}
	mustCreate(ctx, t, c, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "hooked", Namespace: ns},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "example.invalid/app:1"}}}}}})
	eventually(t, time.Minute, "the replicaset controller fails on the webhook", func(ctx context.Context) error {
		l, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(l.Items) == 0 {
			return fmt.Errorf("no ReplicaSet yet (%v)", err)
		}
		for _, cond := range l.Items[0].Status.Conditions {
			if cond.Type == appsv1.ReplicaSetReplicaFailure && strings.Contains(cond.Message, `failed calling webhook "`+hook+`"`) {
				t.Logf("the real message: %s", cond.Message)
				return nil
			}
		}
		return fmt.Errorf("ReplicaSet %s conditions %+v", l.Items[0].Name, l.Items[0].Status.Conditions)
	})
	a := answer(t, "deployment/hooked", "-n", ns)
	bs := a.Chain.Blockers()
	want := `webhook "` + hook + `" calls service ` + ns + `/defaulter, which does not exist; failurePolicy Fail`
	if len(bs) != 1 || bs[0].Object.Kind != "MutatingWebhookConfiguration" || bs[0].Object.Name != config || bs[0].Status != why.Refusing || !strings.HasPrefix(bs[0].Line, want) {
		t.Fatalf("blockers %+v; want mutatingwebhookconfiguration %s Refusing, %q (summary %q)", bs, config, want, a.Summary)
	}
	out := kc.ok(t, admin, "backoff", "why", "deployment/hooked", "-n", ns)
	t.Logf("why deployment/hooked:\n%s", out)
	if w := "Change mutatingwebhookconfiguration.admissionregistration.k8s.io/" + config + ", not the object"; !strings.Contains(out, w) {
		t.Errorf("why lacks %q", w)
	}
}
