package why

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// load reads a testdata object (see testdata/README.md for each source).
func load(t testing.TB, name string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	// As the API server sends it: JSON, whose integers unstructured keeps as int64.
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return u
}

// TestJudge pins the verdict of each real object: kstatus's word, and where
// a rule kstatus does not read decides, that rule and its evidence.
func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		// edit changes the object as a user's later write would.
		edit                      func(u *unstructured.Unstructured)
		status, kstatus, override string
		// evidence must appear in the evidence or the message.
		evidence string
	}{
		{name: "flux kustomization ready at its generation", file: "flux-kustomization-ready.yaml",
			status: Current, kstatus: Current, evidence: "Resource is Ready"},
		{name: "flux kustomization after an edit flux has not seen: Ready is stale", file: "flux-kustomization-ready.yaml",
			edit:   func(u *unstructured.Unstructured) { u.SetGeneration(2) },
			status: InProgress, kstatus: Current, override: "stale-ready",
			evidence: "Ready=True was observed at generation 1; the object is at generation 2"},
		{name: "flux kustomization never reconciled", file: "flux-kustomization-new.yaml",
			status: InProgress, kstatus: InProgress, override: "never-reconciled", evidence: "never reconciled"},
		{name: "cert-manager certificate issuing", file: "certmanager-certificate-issuing.yaml",
			status: InProgress, kstatus: InProgress, evidence: "Issuing certificate as Secret does not exist"},
		{name: "cluster api machinedeployment rolling out: no Ready, kstatus says Current", file: "capi-machinedeployment-rollingout.yaml",
			status: InProgress, kstatus: Current, override: "capi-rollingout",
			evidence: "RollingOut=True (RollingOut): Rolling out 1 not up-to-date replicas * KubeadmConfig is not up-to-date"},
		{name: "cluster api machine ready, node not healthy yet", file: "capi-machine-nodehealthy.yaml",
			status: Current, kstatus: Current, evidence: "Resource is Ready"},
		{name: "cluster api machine after an edit: observedGeneration behind", file: "capi-machine-nodehealthy.yaml",
			edit:   func(u *unstructured.Unstructured) { u.SetGeneration(4) },
			status: InProgress, kstatus: InProgress, evidence: "Machine generation is 4, but latest observed generation is 3"},
		{name: "deployment short of replicas under a quota", file: "deployment-replicafailure.yaml",
			status: InProgress, kstatus: InProgress, evidence: "Replicas: 2/3"},
		{name: "crossplane resource whose update failed: Ready=True hides Synced=False", file: "crossplane-managedsslcertificate-syncfailed.yaml",
			status: Failed, kstatus: Current, override: "crossplane-synced",
			evidence: "Synced=False (ReconcileError): the provider could not apply the spec (Ready=True says only that the external resource exists): update failed: async update failed: failed to update the resource: [{0 doesn't support update []}]; it retries with its backoff"}, // one line: runs of spaces collapsed
		{name: "crossplane resource paused", file: "crossplane-managedsslcertificate-syncfailed.yaml",
			edit: func(u *unstructured.Unstructured) {
				conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
				synced := conds[1].(map[string]any)
				synced["reason"], synced["message"] = "ReconcilePaused", nil
				_ = unstructured.SetNestedSlice(u.Object, conds, "status", "conditions")
			},
			status: InProgress, kstatus: Current, override: "crossplane-paused", evidence: "paused by the crossplane.io/paused annotation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := load(t, tc.file)
			if tc.edit != nil {
				tc.edit(u)
			}
			v := Judge(u)
			if v.Status != tc.status || v.KStatus != tc.kstatus || v.Override != tc.override {
				t.Errorf("status %s, kstatus %s, override %q; want %s, %s, %q", v.Status, v.KStatus, v.Override, tc.status, tc.kstatus, tc.override)
			}
			all := v.Message + "\n" + strings.Join(v.Evidence, "\n")
			if !strings.Contains(all, tc.evidence) {
				t.Errorf("evidence lacks %q:\n%s", tc.evidence, all)
			}
		})
	}
}

// TestJudgeConditions: each condition keeps its own observedGeneration, and
// one observed before the object's generation is marked stale.
func TestJudgeConditions(t *testing.T) {
	u := load(t, "certmanager-certificate-issuing.yaml")
	v := Judge(u)
	if len(v.Conditions) != 2 {
		t.Fatalf("got %d conditions, want 2 (Issuing, Ready)", len(v.Conditions))
	}
	for _, c := range v.Conditions {
		if c.ObservedGeneration != 1 || c.Stale {
			t.Errorf("%s: observedGeneration %d, stale %v; want 1, false", c.Type, c.ObservedGeneration, c.Stale)
		}
	}
	u.SetGeneration(2)
	v = Judge(u)
	for _, c := range v.Conditions {
		if !c.Stale {
			t.Errorf("%s at generation 2: not stale", c.Type)
		}
	}
	// Ready=False at an older generation keeps kstatus's word, and says so.
	if v.Status != InProgress || v.Override != "" {
		t.Errorf("status %s, override %q; want InProgress, none", v.Status, v.Override)
	}
	if want := "Ready=False was observed at generation 1, before the latest change (generation 2)"; !strings.Contains(strings.Join(v.Evidence, "\n"), want) {
		t.Errorf("evidence lacks %q: %v", want, v.Evidence)
	}
}

// TestJudgeArgoApplication: an Argo CD Application is judged by its sync and
// health, which kstatus does not read.
func TestJudgeArgoApplication(t *testing.T) {
	app := func(sync, health, phase string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
			"metadata": map[string]any{"name": "guestbook", "namespace": "argocd", "generation": int64(5)},
			"status": map[string]any{
				"sync":   map[string]any{"status": sync, "revision": "53e28ff20cc530b9ada2173fbbd64d48338583ba"},
				"health": map[string]any{"status": health},
			},
		}}
		if phase != "" {
			_ = unstructured.SetNestedField(u.Object, phase, "status", "operationState", "phase")
			_ = unstructured.SetNestedField(u.Object, "one or more objects failed to apply", "status", "operationState", "message")
		}
		return u
	}
	for _, tc := range []struct {
		sync, health, phase, want, override string
	}{
		{"Synced", "Healthy", "", Current, "argocd-synced"},
		{"OutOfSync", "Healthy", "", InProgress, "argocd-sync"},
		{"Synced", "Progressing", "", InProgress, "argocd-sync"},
		{"Synced", "Degraded", "", Failed, "argocd-health"},
		{"OutOfSync", "Healthy", "Failed", Failed, "argocd-operation"},
	} {
		v := Judge(app(tc.sync, tc.health, tc.phase))
		if v.Status != tc.want || v.Override != tc.override || v.KStatus != Current {
			t.Errorf("sync %s health %s phase %q: %s (%s, kstatus %s); want %s (%s, kstatus Current)", tc.sync, tc.health, tc.phase, v.Status, v.Override, v.KStatus, tc.want, tc.override)
		}
	}
}

// TestOwnership reads a Flux Kustomization's managedFields: the spec was
// last applied by kustomize-controller, and the status written by it
// through the main resource (the API server of that cluster recorded no
// subresource).
func TestOwnership(t *testing.T) {
	u := load(t, "flux-kustomization-managedfields.yaml")
	o := ownershipOf(u.GetManagedFields())
	c := o.SpecChange
	if c == nil || c.Manager != "kustomize-controller" || c.Operation != "Apply" || !c.Time.Equal(time.Date(2022, 1, 17, 15, 49, 14, 0, time.UTC)) {
		t.Errorf("spec change %+v; want kustomize-controller Apply at 2022-01-17T15:49:14Z", c)
	}
	if len(o.StatusManagers) != 1 || o.StatusManagers[0].Manager != "kustomize-controller" || !o.StatusViaMain {
		t.Errorf("status managers %+v, via main %v; want kustomize-controller, through the main resource", o.StatusManagers, o.StatusViaMain)
	}
}
