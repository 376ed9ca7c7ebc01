package why

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// provisionerAnnotations are where kube-controller-manager's binder names
// the external provisioner a claim waits for (the beta one before 1.23).
var provisionerAnnotations = []string{"volume.kubernetes.io/storage-provisioner", "volume.beta.kubernetes.io/storage-provisioner"}

// provisionerEvents are the reasons an external provisioner
// (sigs.k8s.io/sig-storage-lib-external-provisioner) records on a claim
// it works on: any of them says it runs.
var provisionerEvents = map[string]bool{"Provisioning": true, "ProvisioningFailed": true, "ProvisioningSucceeded": true}

// waitingProvisioner is the answer for a Pending claim that waits for an
// external provisioner nothing seems to run: the binder named it in the
// claim's annotation and keeps recording its Normal ExternalProvisioning
// event ("Waiting for a volume to be created either by the external
// provisioner 'example.com/nfs' or manually by the system
// administrator…"), and no event of the provisioner's own says it saw the
// claim. The binder writes no status while the claim waits, so without
// this the answer was "no controller has written this object's status…
// check that the controller of kind PersistentVolumeClaim is installed".
// ok is false for any other object, and when the provisioner has spoken
// (its failures are the claim's recurring events, said already).
func waitingProvisioner(u *unstructured.Unstructured, v Verdict, events []objstatus.Event, now time.Time) (summary string, next []string, ok bool) {
	gvk := u.GroupVersionKind()
	if gvk.Group != "" || gvk.Kind != "PersistentVolumeClaim" || v.Status == Current {
		return "", nil, false
	}
	if phase, _, _ := unstructured.NestedString(u.Object, "status", "phase"); phase != "Pending" {
		return "", nil, false
	}
	prov := ""
	for _, a := range provisionerAnnotations {
		if prov = u.GetAnnotations()[a]; prov != "" {
			break
		}
	}
	if prov == "" {
		return "", nil, false
	}
	var waits int32
	var last time.Time
	for _, e := range events {
		if provisionerEvents[e.Reason] {
			return "", nil, false // the provisioner runs and has seen the claim
		}
		if e.Reason == "ExternalProvisioning" && strings.Contains(e.Message, "'"+prov+"'") {
			waits += max(e.Count, 1)
			if e.LastSeen.After(last) {
				last = e.LastSeen
			}
		}
	}
	if waits == 0 {
		return "", nil, false // not (yet) handed to the provisioner: a first consumer awaited, say
	}
	class, _, _ := unstructured.NestedString(u.Object, "spec", "storageClassName")
	inClass := ""
	if class != "" {
		inClass = fmt.Sprintf(" (StorageClass %s's provisioner)", class)
	}
	seen := fmt.Sprintf("%d ExternalProvisioning events", waits)
	if waits == 1 {
		seen = "1 ExternalProvisioning event"
	}
	if !last.IsZero() {
		seen += ", the latest " + text.Ago(last, now)
	}
	summary = fmt.Sprintf("%s: it waits for provisioner %s to create its volume%s, which nothing seems to run: %s, and none from the provisioner.",
		v.Status, prov, inClass, seen)
	next = []string{
		fmt.Sprintf("Install or start the provisioner %s, or check that it runs and registered under that name (a CSI driver's controller: `kubectl get csidrivers`; its pods' logs say which name it serves).", prov),
		"Or create a PersistentVolume that matches the claim (its access modes, a capacity at least its request, its storageClassName): the binder binds it within 15s (`kubectl get pv`).",
	}
	if class != "" {
		next = append(next, fmt.Sprintf("Or, if the claim should not use %s, recreate it naming a StorageClass whose provisioner runs (`kubectl get storageclass`).", class))
	}
	return summary, next, true
}
