package localcluster

import (
	"context"
	"fmt"
	"maps"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	appsv1client "k8s.io/client-go/kubernetes/typed/apps/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/utils/ptr"
)

// The names of the workload the plugin attaches to: a Deployment whose
// ReplicaSet owns one pod on a kwok node.
const (
	NodeName       = "kwok-node-0"
	DeploymentName = "demo"
	ReplicaSetName = "demo-7d9f8b6c5d"
	PodName        = "demo-7d9f8b6c5d-x2k4p"
	// BackoffPort is the container port named "backoff", the one the plugin
	// finds the instrument's endpoint by.
	BackoffPort = 8082
)

// Clients is the part of a clientset the workload is made with: client-go's
// kubernetes.Interface (the e2e tier's) and the plugin's cluster.Clientset
// (the try-cluster starter's, which keeps the full clientset out of the
// module's binaries) both are one.
type Clients interface {
	CoreV1() corev1client.CoreV1Interface
	AppsV1() appsv1client.AppsV1Interface
}

// Workload is the node and the Deployment → ReplicaSet → Pod chain, in
// Namespace, whose one container has Ports.
type Workload struct {
	Namespace string
	Ports     []corev1.ContainerPort
}

// Create creates the namespace (unless it exists), the node and the chain,
// each level owned by the one above, and the pod bound to the node: no
// controller-manager or scheduler runs.
func (w Workload) Create(ctx context.Context, cs Clients) error {
	nsObj := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: w.Namespace}}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, nsObj, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s: %w", w.Namespace, err)
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		Name:        NodeName,
		Labels:      map[string]string{"type": "kwok"},
		Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
	}}
	if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create node: %w", err)
	}
	labels := map[string]string{"app.kubernetes.io/name": "backoff-demo"}
	podSpec := corev1.PodSpec{
		Containers: []corev1.Container{{
			Name:  "controller",
			Image: "example.invalid/backoff-demo:e2e",
			Ports: w.Ports,
		}},
	}
	dep, err := cs.AppsV1().Deployments(w.Namespace).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: DeploymentName, Namespace: w.Namespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: podSpec},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create deployment: %w", err)
	}
	// As the deployment controller makes them: the ReplicaSet and its pods
	// carry the pod-template-hash its name ends in, which is how a pod is
	// known as the Deployment's (a pod without it read as its ReplicaSet's,
	// and why's next step said forget rs/demo-7d9f8b6c5d to a user who
	// knows the controller as deploy/demo).
	rsLabels := map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: strings.TrimPrefix(ReplicaSetName, DeploymentName+"-")}
	maps.Copy(rsLabels, labels)
	rs, err := cs.AppsV1().ReplicaSets(w.Namespace).Create(ctx, &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: ReplicaSetName, Namespace: w.Namespace, Labels: rsLabels,
			OwnerReferences: []metav1.OwnerReference{OwnerRef("apps/v1", "Deployment", dep.Name, dep.UID)}},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: rsLabels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: rsLabels}, Spec: podSpec},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create replicaset: %w", err)
	}
	podSpec.NodeName = NodeName // bound: there is no scheduler
	if err := DefaultServiceAccount(ctx, cs, w.Namespace); err != nil {
		return err
	}
	_, err = cs.CoreV1().Pods(w.Namespace).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: PodName, Namespace: w.Namespace, Labels: rsLabels,
			OwnerReferences: []metav1.OwnerReference{OwnerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID)}},
		Spec: podSpec,
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create pod: %w", err)
	}
	return nil
}

// DefaultServiceAccount creates namespace ns's "default" ServiceAccount, as
// kube-controller-manager's serviceaccount controller does: the
// ServiceAccount admission plugin refuses a pod without it.
func DefaultServiceAccount(ctx context.Context, cs Clients, ns string) error {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns}}
	if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create serviceaccount default in %s: %w", ns, err)
	}
	return nil
}

// OwnerRef makes the named object the controller of another.
func OwnerRef(apiVersion, kind, name string, uid types.UID) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: ptr.To(true)}
}

// PodRunning reports nil once kwok has the pod Running and Ready.
func PodRunning(ctx context.Context, cs Clients, ns string) error {
	p, err := cs.CoreV1().Pods(ns).Get(ctx, PodName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if p.Status.Phase != corev1.PodRunning {
		return fmt.Errorf("pod %s is %q", PodName, p.Status.Phase)
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return nil
		}
	}
	return fmt.Errorf("pod %s is running but not ready", PodName)
}
