package why

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// lineOf is a node's why in one line: a pod's state, the deciding
// condition, or the verdict's message.
func lineOf(u *unstructured.Unstructured, v Verdict) string {
	if u.GroupVersionKind().GroupKind() == (schema.GroupKind{Kind: "Pod"}) && v.Status != Current {
		if p, err := podOf(u); err == nil {
			return podState(p)
		}
	}
	if c, ok := objstatus.Deciding(v.Conditions); ok && v.Status != Current {
		return c.Said()
	}
	return oneLine(v.Message)
}

func shortErr(err error) string { return oneLine(err.Error()) }

// metav1OwnerRef is an owner reference.
type metav1OwnerRef = metav1.OwnerReference

// podOf converts an unstructured Pod.
func podOf(u *unstructured.Unstructured) (corev1.Pod, error) {
	var p corev1.Pod
	err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &p)
	return p, err
}
