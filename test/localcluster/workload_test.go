package localcluster

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// TestWorkloadReadsAsTheDeployment: the try-cluster's and the e2e tier's
// pod is known as its Deployment's, as a pod the deployment controller
// made is (the pod-template-hash of its ReplicaSet), so the commands the
// plugin suggests name deploy/demo, the workload the user was told of;
// they named rs/demo-7d9f8b6c5d. And deploy/demo still finds the pod.
func TestWorkloadReadsAsTheDeployment(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewClientset()
	const ns = "demo"
	if err := (Workload{Namespace: ns, Ports: []corev1.ContainerPort{{Name: "backoff", ContainerPort: BackoffPort}}}).Create(ctx, cs); err != nil {
		t.Fatal(err)
	}
	p, err := cs.CoreV1().Pods(ns).Get(ctx, PodName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Status.Phase = corev1.PodRunning // kwok's part
	if _, err := cs.CoreV1().Pods(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, target := range []cluster.Target{{}, {Kind: cluster.KindDeployment, Name: DeploymentName}} {
		pods, err := cluster.Resolve(ctx, cs, target, ns, false, "")
		if err != nil {
			t.Fatalf("resolve %v: %v", target, err)
		}
		if len(pods) != 1 || pods[0].Workload != ns+"/deploy/"+DeploymentName {
			t.Errorf("resolve %v: %+v; want the pod, of workload %s/deploy/%s", target, pods, ns, DeploymentName)
		}
	}
}
