package objstatus

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// pv is a PersistentVolume as `kubectl get pv -o yaml` shows one: a
// reclaim policy, the claim it was bound to, and its phase (and message).
func pv(name, policy, claim, phase, message string) *unstructured.Unstructured {
	u := object("v1", "PersistentVolume", ago(33*time.Hour), map[string]any{"phase": phase})
	u.SetName(name)
	u.SetNamespace("")
	spec := map[string]any{"persistentVolumeReclaimPolicy": policy}
	if ns, n, ok := strings.Cut(claim, "/"); ok {
		spec["claimRef"] = map[string]any{"kind": "PersistentVolumeClaim", "namespace": ns, "name": n}
	}
	u.Object["spec"] = spec
	if message != "" {
		u.Object["status"].(map[string]any)["message"] = message
	}
	return u
}

// TestPersistentVolumePhase: a PV has only status.phase, which kstatus
// does not read (every PV was Current). The volumes are the issues':
// kubernetes/cloud-provider-vsphere#409's 46 PVs left Released under
// policy Delete (one of its rows), jupyterhub/zero-to-jupyterhub-k8s#860's
// retained one, and kubernetes-csi/external-provisioner#1235's PV that
// the binder failed to delete (its event's message).
func TestPersistentVolumePhase(t *testing.T) {
	const noPlugin = `error getting deleter volume plugin for volume "pv-jsffwiqcc": no deletable volume plugin matched`
	for _, tc := range []struct {
		name     string
		u        *unstructured.Unstructured
		status   string
		override string
		says     []string
	}{
		{"released, Delete (vsphere#409)", pv("pvc-05ab5701-834e-4181-8401-d02ce444f3f6", "Delete", "nokia-imshss/datadir-buphssnew5-etcd-0", "Released", ""),
			InProgress, "pv-released", []string{"nokia-imshss/datadir-buphssnew5-etcd-0 was deleted", "reclaim policy Delete has yet to reclaim"}},
		{"released, Retain (z2jh#860)", pv("pvc-c4ccb971-a3d6-11e8-b6e3-42010aa402ee", "Retain", "jhub/hub-db-dir", "Released", ""),
			Current, "pv-released-retain", []string{"jhub/hub-db-dir was deleted", "no claim will be bound to it", "spec.claimRef"}},
		{"failed to delete (external-provisioner#1235)", pv("pv-jsffwiqcc", "Delete", "", "Failed", noPlugin),
			Failed, "pv-failed", []string{"could not be reclaimed after its claim was deleted", noPlugin}},
		{"pending", pv("pv0", "Retain", "", "Pending", ""), InProgress, "pv-pending", []string{"not yet available"}},
		{"bound", pv("pv0", "Retain", "default/pvc1", "Bound", ""), Current, "", nil},
		{"available", pv("pv0", "Retain", "", "Available", ""), Current, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Judge(tc.u)
			if v.Status != tc.status || v.Override != tc.override {
				t.Errorf("status %s (override %q), want %s (%q): %s", v.Status, v.Override, tc.status, tc.override, v.Message)
			}
			for _, s := range tc.says {
				if !strings.Contains(v.Message, s) {
					t.Errorf("message %q, want it to say %q", v.Message, s)
				}
			}
		})
	}
}
