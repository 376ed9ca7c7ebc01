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
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// neverReadyLabel marks the pods kwok runs but never makes ready.
const neverReadyLabel = "e2e.kubectl-backoff.dev/readiness"

// neverReadyStage is a kwok Stage, added to the stages hack/k8s-bin.sh
// copies from kwok: a pod with neverReadyLabel=never goes from Pending to
// Running with its containers started and not ready, as the kubelet reports
// a pod whose readiness probe never passes. Its weight beats pod-ready's
// (weight 0) for the pods both select; a Running pod matches neither again.
const neverReadyStage = `
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-running-never-ready
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  weight: 1
  selector:
    matchLabels:
      ` + neverReadyLabel + `: never
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values:
      - 'Pending'
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: Initialized
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: PodScheduled
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        type: ContainersReady
        reason: ContainersNotReady
        message: 'containers with unready status: [{{ range $i, $c := .spec.containers }}{{ if $i }} {{ end }}{{ $c.name }}{{ end }}]'
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        type: Ready
        reason: ContainersNotReady
        message: 'containers with unready status: [{{ range $i, $c := .spec.containers }}{{ if $i }} {{ end }}{{ $c.name }}{{ end }}]'
      containerStatuses:
      {{ range .spec.containers }}
      - image: {{ .image | Quote }}
        name: {{ .name | Quote }}
        ready: false
        started: true
        restartCount: 0
        state:
          running:
            startedAt: {{ $now | Quote }}
      {{ end }}
      phase: Running
      startTime: {{ $now | Quote }}
`

// testProgressDeadline rolls out a Deployment whose pods run and never
// become ready: kube-controller-manager's deployment controller marks it
// Progressing=False ProgressDeadlineExceeded after its deadline, and why
// says Failed and names the pods.
func testProgressDeadline(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, kc *kubectl, admin string, answer func(*testing.T, ...string) *why.Answer) {
	const rollout = "rollout"
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: rollout}})
	labels := map[string]string{"app": "web", neverReadyLabel: "never"}
	mustCreate(ctx, t, c, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: rollout},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](2), ProgressDeadlineSeconds: ptr.To[int32](10),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{NodeName: nodeName, // bound: there is no scheduler
					Containers: []corev1.Container{{Name: "web", Image: "example.invalid/web:never-ready",
						ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080)}}}}}}}}})
	eventually(t, 2*time.Minute, "the deployment controller says the progress deadline is exceeded", func(ctx context.Context) error {
		d, err := cs.AppsV1().Deployments(rollout).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, cond := range d.Status.Conditions {
			if cond.Type == appsv1.DeploymentProgressing && cond.Status == corev1.ConditionFalse && cond.Reason == "ProgressDeadlineExceeded" {
				return nil
			}
		}
		return fmt.Errorf("conditions %+v (%d replicas, %d ready)", d.Status.Conditions, d.Status.Replicas, d.Status.ReadyReplicas)
	})
	pods, err := cs.CoreV1().Pods(rollout).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 2 {
		t.Fatalf("%d pods; want the 2 replicas", len(pods.Items))
	}
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning {
			t.Fatalf("pod %s is %s; want kwok to run it (not ready)", p.Name, p.Status.Phase)
		}
	}

	a := answer(t, "deployment/web", "-n", rollout)
	if a.Verdict.Status != "Failed" || !strings.HasPrefix(a.Summary, "Failed: Progressing=False (ProgressDeadlineExceeded)") {
		t.Errorf("verdict %s, summary %q; want Failed by the progress deadline", a.Verdict.Status, a.Summary)
	}
	blocked := map[string]string{}
	for _, b := range a.Chain.Blockers() {
		if b.Object.Kind == "Pod" {
			blocked[b.Object.Name] = b.Line
		}
	}
	out := kc.ok(t, admin, "backoff", "why", "deployment/web", "-n", rollout)
	t.Logf("why deployment/web -n %s:\n%s", rollout, out)
	for _, p := range pods.Items {
		line, ok := blocked[p.Name]
		switch {
		case !ok:
			t.Errorf("pod %s is not a blocker of the chain (blockers %v)", p.Name, blocked)
		case !strings.Contains(line, "not ready"):
			t.Errorf("pod %s's line %q; want it said not ready", p.Name, line)
		}
		if !strings.Contains(a.Summary, "pod/"+p.Name) || !strings.Contains(out, "pod/"+p.Name) {
			t.Errorf("the answer does not name pod %s: %q", p.Name, a.Summary)
		}
	}
	// The pods' status is their node's (kwok as the kubelet): no controller
	// to search for, no --controller-pod asked for.
	for _, b := range a.Blockers {
		if b.Controller == nil || b.Controller.Rule != why.RuleNodeAgent {
			t.Errorf("blocker %s: controller %+v; want %s", b.Object.Ref(), b.Controller, why.RuleNodeAgent)
		}
	}
	if strings.Contains(out, "--controller-pod") {
		t.Errorf("why asks for --controller-pod of a Pod's status manager")
	}
	for _, want := range []string{"Status:      not ready (Failed)", "ProgressDeadlineExceeded", "<- blocker"} {
		if !strings.Contains(out, want) {
			t.Errorf("why lacks %q", want)
		}
	}
}
