package why

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A Pod not on a node is the scheduler's to place, not a controller's to
// reconcile: the scheduler records what it tried in the PodScheduled
// condition (False, reason Unschedulable, with its message "0/3 nodes are
// available: …"), and binding sets spec.nodeName. A Pod with neither was
// never looked at by a scheduler: none runs, or not the one it names in
// spec.schedulerName. "Check that the controller of kind Pod is installed"
// is no answer for either.

// unscheduled is the answer for a Pod that no node runs yet, from its
// PodScheduled condition; ok is false for any other object.
func unscheduled(u *unstructured.Unstructured, v Verdict) (summary string, next []string, ok bool) {
	if u.GetKind() != "Pod" || u.GroupVersionKind().Group != "" || v.Status == Terminating {
		return "", nil, false
	}
	if node, _, _ := unstructured.NestedString(u.Object, "spec", "nodeName"); node != "" {
		return "", nil, false
	}
	scheduler, _, _ := unstructured.NestedString(u.Object, "spec", "schedulerName")
	if scheduler == "" {
		scheduler = "default-scheduler"
	}
	for _, c := range v.Conditions {
		if c.Type != "PodScheduled" || c.Status != "False" {
			continue
		}
		said := strings.TrimSuffix(c.Said(), ".")
		return fmt.Sprintf("%s: not scheduled: the scheduler found no node for it (%s).", v.Status, said),
			[]string{"Give it a node it fits: the message says what each node lacks (resources, taints it does not tolerate, affinity); change the Pod's requests or tolerations, or the nodes."}, true
	}
	return fmt.Sprintf("%s: not scheduled: no node is assigned (spec.nodeName is empty) and no scheduler has looked at it (it has no PodScheduled condition).", v.Status),
		[]string{fmt.Sprintf("Check that a scheduler runs: the Pod names %q (spec.schedulerName); the default one is kube-scheduler: `kubectl get pods -n kube-system -l component=kube-scheduler`.", scheduler)}, true
}
