package why

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestPVCMissingStorageClass: K8S-FastDFS#6's claim, its ProvisioningFailed
// event verbatim (x39 over 71m, the latest 11s ago): the answer is the
// events, not "check that the controller is installed", and the missing
// StorageClass is the blocker to create.
func TestPVCMissingStorageClass(t *testing.T) {
	clusterScoped["StorageClass"] = true
	t.Cleanup(func() { delete(clusterScoped, "StorageClass") })
	g := graphOf(t, "chain/pvc-fast-pending.yaml", "kind:chain/storageclass-standard.yaml")
	u := load(t, "chain/pvc-fast-pending.yaml")
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	a := &Asker{Graph: g, Now: func() time.Time { return now },
		Events: func(context.Context, *unstructured.Unstructured) ([]objstatus.Event, error) {
			return []objstatus.Event{{Type: "Warning", Reason: "ProvisioningFailed", Message: `storageclass.storage.k8s.io "fast" not found`,
				Count: 39, FirstSeen: now.Add(-71 * time.Minute), LastSeen: now.Add(-11 * time.Second)}}, nil
		}}
	ans := a.Ask(context.Background(), u, "persistentvolumeclaims")
	b := ans.Chain.Blockers()
	if len(b) != 1 || b[0].Object.Ref() != "storageclass.storage.k8s.io/fast" || b[0].Status != NotFound {
		t.Fatalf("blockers %v; want the missing storageclass fast\n%s", blockerRefs(ans.Chain), treeText(ans.Chain.Root, ""))
	}
	if want := "InProgress: it waits for storageclass.storage.k8s.io/fast"; !strings.HasPrefix(ans.Summary, want) {
		t.Errorf("summary %q; want it to begin %q", ans.Summary, want)
	}
	next := strings.Join(ans.Next, "\n")
	if !strings.Contains(next, "Create storageclass.storage.k8s.io/fast") || strings.Contains(next, "installed") {
		t.Errorf("next %q; want the StorageClass created, nothing about installing a controller", next)
	}
	// Alone (no chain), the claim's own answer is its events.
	a.Graph = nil
	one := a.Ask(context.Background(), u, "persistentvolumeclaims")
	if want := "InProgress: 39 ProvisioningFailed events since the last change, the latest 11s ago: storageclass.storage.k8s.io \"fast\" not found."; one.Summary != want {
		t.Errorf("summary %q; want %q", one.Summary, want)
	}
}

// TestPVCNoStorageClass: kubernetes/kubernetes#67907's claim (no
// storageClassName, no default StorageClass) and its event verbatim — a
// Normal FailedBinding from kube-controller-manager's binder, x303 over 1h.
// The binder writes no status for a Pending claim, so managedFields name
// no status manager; the answer is still the event, and the fix is the
// user's (a class, a default class, or a matching volume), not a controller
// to install.
func TestPVCNoStorageClass(t *testing.T) {
	u := load(t, "pvc-no-storageclass.yaml")
	now := u.GetCreationTimestamp().Add(time.Hour + 3*time.Minute)
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Keys: &fakeKeys{}, Now: func() time.Time { return now },
		Events: func(context.Context, *unstructured.Unstructured) ([]objstatus.Event, error) {
			return []objstatus.Event{{Type: "Normal", Reason: "FailedBinding", Message: "no persistent volumes available for this claim and no storage class is set",
				Count: 303, FirstSeen: now.Add(-time.Hour), LastSeen: now.Add(-3 * time.Minute)}}, nil
		}}
	ans := a.Ask(context.Background(), u, "persistentvolumeclaims")
	if want := "InProgress: 303 FailedBinding events since the last change, the latest 3m0s ago: no persistent volumes available for this claim and no storage class is set."; ans.Summary != want {
		t.Errorf("summary %q; want %q", ans.Summary, want)
	}
	next := strings.Join(ans.Next, "\n")
	for _, w := range []string{"spec.storageClassName", `storageclass.kubernetes.io/is-default-class: "true"`, "PersistentVolume"} {
		if !strings.Contains(next, w) {
			t.Errorf("next %q; want it to name %s", next, w)
		}
	}
	if strings.Contains(next, "installed") {
		t.Errorf("next %q; want nothing about installing a controller", next)
	}
	if c := ans.Controller; c == nil || strings.Contains(c.How, "no controller has reconciled") || !strings.Contains(c.How, "persistentvolume-binder-controller") {
		t.Errorf("controller %+v; want the binder named, not \"no controller has reconciled this object\"", c)
	}
	// In a chain (nothing below the claim), the same answer.
	a.Graph = graphOf(t, "pvc-no-storageclass.yaml")
	chained := a.Ask(context.Background(), u, "persistentvolumeclaims")
	if chained.Summary != ans.Summary || !slices.Equal(chained.Next, ans.Next) {
		t.Errorf("in a chain: summary %q, next %q; want %q, %q", chained.Summary, chained.Next, ans.Summary, ans.Next)
	}
}

// TestPVCNoStorageClassFromKCMLog: the same claim asked by a tenant who
// gives kube-controller-manager's log as a file (--from-logs kcm.log
// --controller-log kube-controller-manager, as README shows). The claim's
// managedFields name no status manager (the binder writes none while the
// claim waits), yet its controller is kube-controller-manager's binder:
// the log named is its controller's, not "neither a controller of kcm.log
// nor the status manager … the log was not read for it", said first, above
// the fix (the e2e tier's tenant, on a real kube-controller-manager).
func TestPVCNoStorageClassFromKCMLog(t *testing.T) {
	u := load(t, "pvc-no-storageclass.yaml")
	now := u.GetCreationTimestamp().Add(time.Hour + 3*time.Minute)
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Now: func() time.Time { return now }, FromLog: kcmQuotaLog(t, kcmManager),
		Events: func(context.Context, *unstructured.Unstructured) ([]objstatus.Event, error) {
			return []objstatus.Event{{Type: "Normal", Reason: "FailedBinding", Message: "no persistent volumes available for this claim and no storage class is set",
				Count: 303, FirstSeen: now.Add(-time.Hour), LastSeen: now.Add(-3 * time.Minute)}}, nil
		}}
	ans := a.Ask(context.Background(), u, "persistentvolumeclaims")
	next := strings.Join(ans.Next, "\n")
	if strings.Contains(next, "the log was not read for it") {
		t.Errorf("next says the log of the claim's controller was not read for it:\n%s", next)
	}
	if len(ans.Next) == 0 || !strings.HasPrefix(ans.Next[0], "The claim names no StorageClass") {
		t.Errorf("next %q; want the user's fix first", ans.Next)
	}
	if c := ans.Controller; c == nil || !strings.Contains(c.How, "persistentvolume-binder-controller") {
		t.Errorf("controller %+v; want the binder named", c)
	}
}

// TestPVCWaitsForProvisioner: the claim once a default StorageClass was
// given it whose provisioner (example.com/nfs) nothing runs: the binder
// gave it the class and its storage-provisioner annotation, and records
// its Normal ExternalProvisioning event (the text kube-controller-manager
// writes, as kubernetes' users pasted it, e.g. elastic/helm-charts' and
// rook's issues, with this provisioner's name). The answer was "no
// controller has written this object's status… check that the controller
// of kind PersistentVolumeClaim is installed"; it is the provisioner to
// start. Once the provisioner records its own event, it runs: not said.
func TestPVCWaitsForProvisioner(t *testing.T) {
	u := load(t, "pvc-no-storageclass.yaml")
	u.SetAnnotations(map[string]string{"volume.kubernetes.io/storage-provisioner": "example.com/nfs"})
	if err := unstructured.SetNestedField(u.Object, "nfs", "spec", "storageClassName"); err != nil {
		t.Fatal(err)
	}
	now := u.GetCreationTimestamp().Add(10 * time.Minute)
	events := []objstatus.Event{{Type: "Normal", Reason: "ExternalProvisioning",
		Message: "Waiting for a volume to be created either by the external provisioner 'example.com/nfs' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
		Count:   40, FirstSeen: now.Add(-10 * time.Minute), LastSeen: now.Add(-5 * time.Second)}}
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Keys: &fakeKeys{}, Now: func() time.Time { return now },
		Events: func(context.Context, *unstructured.Unstructured) ([]objstatus.Event, error) { return events, nil }}
	ans := a.Ask(context.Background(), u, "persistentvolumeclaims")
	for _, want := range []string{"it waits for provisioner example.com/nfs", "which nothing seems to run", "40 ExternalProvisioning events"} {
		if !strings.Contains(ans.Summary, want) {
			t.Errorf("summary %q lacks %q", ans.Summary, want)
		}
	}
	next := strings.Join(ans.Next, "\n")
	if !strings.Contains(next, "Install or start the provisioner example.com/nfs") || strings.Contains(next, "kind PersistentVolumeClaim is installed") {
		t.Errorf("next %q; want the provisioner to start, not a controller of the claim's kind", next)
	}
	if c := ans.Controller; c == nil || strings.Contains(c.How, "no controller has reconciled") {
		t.Errorf("controller %+v; want the binder named, not \"no controller has reconciled this object\"", c)
	}
	events = append(events, objstatus.Event{Type: "Normal", Reason: "Provisioning", Message: `External provisioner is provisioning volume for claim "jhub/hub-db-dir"`, Count: 1, LastSeen: now})
	a = &Asker{Finder: a.Finder, Keys: a.Keys, Now: a.Now, Events: a.Events} // its own cache of events
	if ans := a.Ask(context.Background(), u, "persistentvolumeclaims"); strings.Contains(ans.Summary, "nothing seems to run") {
		t.Errorf("with the provisioner's own event, summary %q still says nothing runs it", ans.Summary)
	}
}
