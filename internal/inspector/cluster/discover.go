package cluster

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Pod is one pod to attach to.
type Pod struct {
	Namespace, Name string
	// Port is the pod port the endpoint listens on.
	Port int
	// Ready is the pod's Ready condition; Phase its phase.
	Ready bool
	Phase corev1.PodPhase
	// Workload is the pod's workload, "namespace/kind/name" (deploy, sts,
	// another owner, or pod for a pod of its own): replicas share it.
	Workload string
	// PortGuessed is set when no --port was given and the pod has no
	// container port named PortName: Port is DefaultPort, a guess, and the
	// controller may not be instrumented at all.
	PortGuessed bool
}

// String is "namespace/name".
func (p Pod) String() string { return p.Namespace + "/" + p.Name }

// Resolve finds the pods of target in namespace (all for every namespace,
// only for discovery and a label selector, which then keeps the instrumented
// pods unless port names one). Pods that are not running are left out; an
// empty result is an error that says what was looked for.
func Resolve(ctx context.Context, cs Clientset, target Target, namespace string, all bool, port PortSpec) ([]Pod, error) {
	var pods []corev1.Pod
	var err error
	switch {
	case target.Kind == KindPod:
		var p *corev1.Pod
		p, err = cs.CoreV1().Pods(namespace).Get(ctx, target.Name, metav1.GetOptions{})
		if err == nil {
			pods = []corev1.Pod{*p}
		}
	case target.Kind != "":
		var sel string
		sel, err = workloadSelector(ctx, cs, target, namespace)
		if err == nil {
			pods, err = listPods(ctx, cs, namespace, sel)
		}
	case target.Selector != "" && all:
		// Cluster-wide: the selector narrows the instrumented pods.
		pods, err = listPods(ctx, cs, metav1.NamespaceAll, target.Selector)
		if port == "" {
			pods = slices.DeleteFunc(pods, func(p corev1.Pod) bool { return namedPort(p) == 0 })
		}
		namespace = metav1.NamespaceAll
	case target.Selector != "":
		pods, err = listPods(ctx, cs, namespace, target.Selector)
	default:
		if all {
			namespace = metav1.NamespaceAll
		}
		pods, err = listPods(ctx, cs, namespace, "")
		pods = slices.DeleteFunc(pods, func(p corev1.Pod) bool { return namedPort(p) == 0 })
	}
	if err != nil {
		return nil, explainK8sError(err, target, namespace)
	}
	out := make([]Pod, 0, len(pods))
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning || p.DeletionTimestamp != nil {
			continue
		}
		n, err := podPort(p, port)
		if err != nil {
			return nil, err
		}
		out = append(out, Pod{Namespace: p.Namespace, Name: p.Name, Port: n, Ready: podReady(p), Phase: p.Status.Phase,
			Workload: workloadOf(p), PortGuessed: port == "" && namedPort(p) == 0})
	}
	if len(out) == 0 {
		return nil, noPods(target, namespace, len(pods))
	}
	slices.SortFunc(out, func(a, b Pod) int { return strings.Compare(a.String(), b.String()) })
	return out, nil
}

func workloadSelector(ctx context.Context, cs Clientset, t Target, ns string) (string, error) {
	var sel *metav1.LabelSelector
	switch t.Kind {
	case KindDeployment:
		d, err := cs.AppsV1().Deployments(ns).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = d.Spec.Selector
	case KindStatefulSet:
		s, err := cs.AppsV1().StatefulSets(ns).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = s.Spec.Selector
	case KindReplicaSet:
		r, err := cs.AppsV1().ReplicaSets(ns).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		sel = r.Spec.Selector
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return "", fmt.Errorf("%s: selector: %w", t, err)
	}
	return s.String(), nil
}

func listPods(ctx context.Context, cs Clientset, ns, selector string) ([]corev1.Pod, error) {
	list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// namedPort is the container port named PortName, or 0.
func namedPort(p corev1.Pod) int {
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			if cp.Name == PortName {
				return int(cp.ContainerPort)
			}
		}
	}
	return 0
}

// podPort applies the port spec to a pod: a number as is, a name looked up, empty
// the port named "backoff" or else DefaultPort.
func podPort(p corev1.Pod, spec PortSpec) (int, error) {
	if spec == "" {
		if n := namedPort(p); n != 0 {
			return n, nil
		}
		return DefaultPort, nil
	}
	if n, err := strconv.Atoi(string(spec)); err == nil {
		return n, nil
	}
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			if cp.Name == string(spec) {
				return int(cp.ContainerPort), nil
			}
		}
	}
	return 0, &ParamError{Param: ParamPort, Value: strconv.Quote(string(spec)), Err: fmt.Errorf("pod %s/%s has no container port of that name", p.Namespace, p.Name)}
}

func podReady(p corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func noPods(t Target, ns string, notRunning int) error {
	where := fmt.Sprintf("in namespace %q", ns)
	if ns == "" {
		where = "in any namespace"
	}
	switch {
	case t.IsZero():
		return &NoPodsError{Namespace: ns, NotRunning: notRunning}
	case notRunning > 0:
		return fmt.Errorf("%s: %d pod(s) %s, none running", t, notRunning, where)
	}
	return fmt.Errorf("%s: no pods %s", t, where)
}

func explainK8sError(err error, t Target, ns string) error {
	switch {
	case apierrors.IsNotFound(err):
		return fmt.Errorf("%s not found in namespace %q", t, ns)
	}
	return fmt.Errorf("%s: %w", t, err)
}
