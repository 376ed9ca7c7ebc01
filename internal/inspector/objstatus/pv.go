package objstatus

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// persistentVolumePhase: a PersistentVolume has no conditions, only
// status.phase, so kstatus calls every one Current — the volumes left
// Released after their claims were deleted among them (46 of them on
// kubernetes/cloud-provider-vsphere#409, reclaim policy Delete). The phase
// says what the persistent-volume binder will do:
//
//   - Pending: not yet available to a claim (InProgress).
//   - Released, policy Delete or Recycle: the binder (or the CSI
//     provisioner, for a provisioned volume) is to delete or scrub it; one
//     that stays Released is failing to (its Warning events say why).
//   - Released, policy Retain: kept on purpose, with the old claim's data,
//     and "never bound again" (jsafrane, kubernetes/kubernetes#24682) until
//     an administrator deletes it or clears spec.claimRef: Current, the
//     message says so, since a new claim waiting for it will not get it.
//   - Failed: the binder could not reclaim it (status.message says why).
func persistentVolumePhase(u *unstructured.Unstructured, v *Verdict) bool {
	gvk := u.GroupVersionKind()
	if gvk.Group != "" || gvk.Kind != "PersistentVolume" {
		return false
	}
	str := func(path ...string) string { s, _, _ := unstructured.NestedString(u.Object, path...); return s }
	phase, policy := str("status", "phase"), str("spec", "persistentVolumeReclaimPolicy")
	claim := "its claim"
	if n := str("spec", "claimRef", "name"); n != "" {
		claim += " " + str("spec", "claimRef", "namespace") + "/" + n
	}
	said := ""
	if m := str("status", "message"); m != "" {
		said = ": " + oneLine(m)
	}
	switch phase {
	case "Pending":
		v.override(InProgress, "pv-pending", "phase Pending: the volume is not yet available to a claim"+said)
	case "Released":
		if policy == "Retain" {
			v.override(Current, "pv-released-retain", fmt.Sprintf("phase Released: %s was deleted, and reclaim policy Retain keeps the volume and its data: no claim will be bound to it until an administrator deletes it or removes spec.claimRef%s", claim, said))
			return true
		}
		v.override(InProgress, "pv-released", fmt.Sprintf("phase Released: %s was deleted, and reclaim policy %s has yet to reclaim the volume (its Warning events say what fails)%s", claim, orUnknown(policy), said))
	case "Failed":
		v.override(Failed, "pv-failed", fmt.Sprintf("phase Failed: the volume could not be reclaimed after %s was deleted (policy %s)%s", claim, orUnknown(policy), said))
	default:
		return false
	}
	return true
}
