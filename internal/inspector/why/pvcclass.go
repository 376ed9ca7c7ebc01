package why

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// binderHow is the controller's How for such a claim: managedFields name
// no status manager because the binder writes no status while the claim
// waits, not because nothing reconciles it.
const binderHow = "managedFields name no status manager: kube-controller-manager's persistentvolume-binder-controller reconciles claims, " +
	"and writes a claim's status only when it binds it; while it cannot, its events say why"

// unclassedClaim is the user's fix for a Pending PersistentVolumeClaim
// that names no StorageClass and whose binder keeps failing on it (its
// recurring failure events: kube-controller-manager's FailedBinding "no
// persistent volumes available for this claim and no storage class is
// set"). Nothing provisions a volume for such a claim: the binder only
// binds an existing volume, so the claim waits on the user, not on a
// controller to install. A claim without the field gets a default
// StorageClass made later (the binder assigns it, Kubernetes 1.28+); one
// whose field is "" asks for no class on purpose, and only a volume with
// no class binds it. ok is false for any other object.
func unclassedClaim(u *unstructured.Unstructured, v Verdict) (next []string, ok bool) {
	gvk := u.GroupVersionKind()
	if gvk.Group != "" || gvk.Kind != "PersistentVolumeClaim" || v.Recurring == "" || v.Status == Current {
		return nil, false
	}
	if phase, _, _ := unstructured.NestedString(u.Object, "status", "phase"); phase != "Pending" {
		return nil, false
	}
	class, set, _ := unstructured.NestedString(u.Object, "spec", "storageClassName")
	if class != "" {
		return nil, false // a named class: the blocker is that class (or its provisioner)
	}
	if _, annotated := u.GetAnnotations()["volume.beta.kubernetes.io/storage-class"]; annotated {
		return nil, false
	}
	pv := "Or create a PersistentVolume that matches the claim (its access modes, a capacity at least its request, storageClassName unset): the binder binds it within 15s (`kubectl get pv`)."
	if set {
		return []string{`The claim's spec.storageClassName is "": it asks for no StorageClass, so nothing provisions a volume for it. Recreate it with spec.storageClassName naming a StorageClass (` + "`kubectl get storageclass`" + `).`, pv}, true
	}
	return []string{
		"The claim names no StorageClass, and no default StorageClass was given it: set spec.storageClassName to a StorageClass (`kubectl get storageclass`; the field is immutable, so recreate the claim),",
		`or mark a StorageClass the default (annotation storageclass.kubernetes.io/is-default-class: "true"): the binder gives it to this claim.`,
		pv,
	}, true
}
