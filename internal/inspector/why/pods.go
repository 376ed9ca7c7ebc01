package why

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// The rules beyond the Deployments'.
const (
	// RulePodContainer: pods with a container named as the manager, whatever
	// owns them (a static pod as kubeadm runs kube-controller-manager, a
	// DaemonSet, a StatefulSet).
	RulePodContainer = "pod-container-name"
	// RuleControlPlane: the manager is a control-plane component and no pod
	// of it is visible: a managed control plane (or one the user may not see).
	RuleControlPlane = "control-plane"
	// RuleNodeAgent: the object is a Pod, whose status its node's kubelet
	// writes (whatever the manager's name: "kubelet", kwok's "kwok"): no
	// controller's work queue holds it, so there is no backoff to read.
	RuleNodeAgent = "node-agent"
)

// nodeAgent is the answer for a Pod's status manager.
func nodeAgent(manager string) *Controller {
	return &Controller{Manager: manager, Rule: RuleNodeAgent,
		How: fmt.Sprintf("a Pod's status is written by the kubelet of its node (status manager %q), not by a controller with a work queue: its containers' states, its conditions and its events are the answer", manager)}
}

// controlPlane are the components that write the status of built-in kinds;
// a managed cluster (EKS, GKE, AKS) runs them where no pod shows.
var controlPlane = map[string]bool{
	"kube-controller-manager": true, "kube-scheduler": true, "cloud-controller-manager": true, "kube-apiserver": true,
}

// podPage bounds one page of a pod list: a cluster's pods are listed in pages.
const podPage = 500

// listAllPods lists the pods of every namespace, page by page.
func listAllPods(ctx context.Context, cs cluster.Clientset) ([]corev1.Pod, error) {
	var out []corev1.Pod
	opts := metav1.ListOptions{Limit: podPage}
	for {
		l, err := cs.CoreV1().Pods(metav1.NamespaceAll).List(ctx, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		if l.Continue == "" {
			return out, nil
		}
		opts.Continue = l.Continue
	}
}

// byPodContainer finds the running pods that have a container named as the
// manager, owned by anything or nothing. Pods of one namespace are one
// target: by the labels they share (kubeadm's static pods share
// component=NAME, one pod per control-plane node), else the first pod.
func byPodContainer(manager string, pods []corev1.Pod) *Controller {
	byNS := map[string][]corev1.Pod{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || !slices.ContainsFunc(p.Spec.Containers, func(c corev1.Container) bool { return c.Name == manager }) {
			continue
		}
		byNS[p.Namespace] = append(byNS[p.Namespace], p)
	}
	switch len(byNS) {
	case 0:
		return nil
	case 1:
	default:
		c := &Controller{Manager: manager, Rule: RuleAmbiguous}
		for _, ns := range slices.Sorted(maps.Keys(byNS)) {
			c.Candidates = append(c.Candidates, ns+"/pod/"+byNS[ns][0].Name)
		}
		c.How = fmt.Sprintf("pods in %d namespaces have a container named as the status manager %q (%s): name one with "+givePods("pod/NAME"),
			len(byNS), manager, strings.Join(c.Candidates, ", "))
		return c
	}
	var ns string
	for k := range byNS {
		ns = k
	}
	list := byNS[ns]
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	c := &Controller{Manager: manager, Rule: RulePodContainer, Namespace: ns, Target: "pod/" + list[0].Name}
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = p.Name
	}
	c.How = fmt.Sprintf("pod %s has a container named as the status manager %q", list[0].Name, manager)
	if len(list) > 1 {
		if sel := commonLabels(list); sel != "" {
			c.Selector, c.Target = sel, "-l "+sel
		}
		c.How = fmt.Sprintf("%d pods (%s) have a container named as the status manager %q", len(list), strings.Join(names, ", "), manager)
	}
	return c
}

// commonLabels is the selector of the labels every pod has, "" when none.
func commonLabels(pods []corev1.Pod) string {
	common := maps.Clone(pods[0].Labels)
	for _, p := range pods[1:] {
		maps.DeleteFunc(common, func(k, v string) bool { return p.Labels[k] != v })
	}
	if len(common) == 0 {
		return ""
	}
	return labels.SelectorFromSet(common).String()
}

// controlPlaneHidden is the answer for a control-plane manager with no pod
// in sight: the control plane is managed, and the answer comes from the
// object's conditions, events and chain, not from a log no one can read.
func controlPlaneHidden(manager string) *Controller {
	return &Controller{Manager: manager, Rule: RuleControlPlane,
		How: fmt.Sprintf("the status manager %q is a Kubernetes control-plane component, and no pod of it is visible: the control plane is managed (or hidden from you), so its log cannot be read; the answer comes from the object's conditions, its events and the objects it depends on", manager)}
}

// target is the controller's pods as a Target.
func (c *Controller) target() (cluster.Target, error) {
	if c.Selector != "" {
		return cluster.Target{Selector: c.Selector}, nil
	}
	return cluster.ParseTarget(c.Target, "")
}
