package why

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// certManagerDiscovery is a cluster whose discovery serves cert-manager's
// Certificate with its status subresource, as the CRD declares it.
func certManagerDiscovery() *fake.Clientset {
	cs := fake.NewClientset()
	cs.Resources = []*metav1.APIResourceList{{GroupVersion: "cert-manager.io/v1", APIResources: []metav1.APIResource{
		{Name: "certificates", Kind: "Certificate", Namespaced: true},
		{Name: "certificates/status", Kind: "Certificate", Namespaced: true},
	}}}
	return cs
}

// unreconciled is the cert-manager Certificate of testdata as applied,
// before cert-manager wrote any status (built: the status dropped).
func unreconciled(t *testing.T) *unstructured.Unstructured {
	u := load(t, "certmanager-certificate-issuing.yaml")
	delete(u.Object, "status")
	u.SetName("never-tls")
	u.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate,
		Time: &metav1.Time{Time: now.Add(-5 * time.Minute)}, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}}})
	return u
}

// TestListNotReconciled: `why TYPE -A` lists a custom resource no
// controller has written a status for (kstatus alone calls it Current and
// it was left out), and its answer says so.
func TestListNotReconciled(t *testing.T) {
	cs := certManagerDiscovery()
	a := &Asker{Finder: &Finder{Core: cs}, Keys: &fakeKeys{}, Kinds: &DiscoveryKinds{Discovery: cs.Discovery()}, Now: func() time.Time { return now }}
	l := a.List(context.Background(), []Item{{Object: unreconciled(t), Resource: "certificates"}, {Object: load(t, "flux-kustomization-ready.yaml")}})
	if len(l.Answers) != 1 || l.Answers[0].Object.Name != "never-tls" {
		t.Fatalf("answers %+v; want never-tls alone", l.Answers)
	}
	ans := l.Answers[0]
	if ans.Verdict.Status != InProgress || !ans.Verdict.NotReconciled {
		t.Errorf("verdict %+v; want InProgress, not reconciled", ans.Verdict)
	}
	if want := "generation 1, changed 5m0s ago by kubectl-client-side-apply; no controller has written its status yet"; ans.GenerationLine() != want {
		t.Errorf("generation line\n %s\nwant\n %s", ans.GenerationLine(), want)
	}
	if !strings.Contains(ans.Summary, "no controller has written its status yet") || ans.Waiting.Duration != 5*time.Minute {
		t.Errorf("summary %q, waiting %v; want not reconciled, waiting 5m", ans.Summary, ans.Waiting)
	}
	// Without discovery the kind is unknown: Current, as kstatus says, and never "not reconciled".
	if v := (&Asker{}).judge(context.Background(), unreconciled(t), "certificates"); v.Status != Current || v.NotReconciled {
		t.Errorf("without discovery: %s, not reconciled %v; want Current, false", v.Status, v.NotReconciled)
	}
}

// TestAskConfigMap: a ConfigMap has no status and no controller: Current,
// with no step asking for "the controller of kind ConfigMap".
func TestAskConfigMap(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "default"}, "data": map[string]any{"a": "b"}}}
	cs := fake.NewClientset()
	cs.Resources = []*metav1.APIResourceList{{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "configmaps", Kind: "ConfigMap", Namespaced: true}}}}
	a := &Asker{Finder: &Finder{Core: cs}, Keys: &fakeKeys{}, Kinds: &DiscoveryKinds{Discovery: cs.Discovery()}, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "configmaps")
	all := ans.Summary + strings.Join(ans.Next, "\n")
	if ans.Verdict.Status != Current || strings.Contains(all, "controller of kind") || !strings.Contains(all, "no controller was found reporting on it") {
		t.Errorf("status %s, summary %q, next %v; want Current, saying no controller was found, asking for no controller", ans.Verdict.Status, ans.Summary, ans.Next)
	}
	// Its author's controller, run with go run, has no pods to name: the
	// answer names the flag that reaches it too (it said only
	// --controller-pod, and "Current" of a key failing on 127.0.0.1:8082).
	for _, flag := range []string{"--controller-pod", "--addr"} {
		if !strings.Contains(ans.Summary, flag) {
			t.Errorf("summary %q; want it to name %s", ans.Summary, flag)
		}
	}
	if strings.Contains(ans.GenerationLine(), "observedGeneration") {
		t.Errorf("generation line %q speaks of observedGeneration", ans.GenerationLine())
	}
}

// TestConfigMapReconciled: a ConfigMap whose operator reports failures on
// its key (named with --controller-pod) is judged by them, not by its
// having no status (issue 48: 14 failures, "no controller reconciles it").
func TestConfigMapReconciled(t *testing.T) {
	a := &Answer{Object: Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "widgets", Name: "down-1", Key: "widgets/down-1"},
		Verdict:    Verdict{Status: Current, KStatus: Current, NoStatus: true, KindNoStatus: true},
		Controller: &Controller{Rule: RuleGiven, Target: "deploy/widget-op", Namespace: "widgets"},
		Backoff: &Backoff{Source: SourceLogs, Controller: "configmap", ServerTime: now,
			Key: &api.Key{Key: "widgets/down-1", State: api.StateBackoff, Failures: 14, TotalFailures: 14, NextRetryAt: now.Add(time.Minute)}},
		Now: now}
	controllerVerdict(a)
	s, _ := summarize(a, CommandHint{})
	if !strings.HasPrefix(s, `InProgress: controller "configmap" is failing on it: 14 consecutive failures`) {
		t.Errorf("summary %q; want the controller's failures, InProgress", s)
	}
	// One verdict: the status printed above the summary says it too, and
	// says what overrode kstatus (it printed "Status: Current").
	v := a.Verdict
	if v.Status != InProgress || v.KStatus != Current || v.Override != RuleControllerFailing {
		t.Errorf("verdict %s (kstatus %s, override %q); want InProgress over kstatus's Current, by %s", v.Status, v.KStatus, v.Override, RuleControllerFailing)
	}
	if want := `not Current: controller "configmap" is failing on it (14 consecutive failures, from its log); a ConfigMap has no status for kstatus to read`; !slices.Contains(v.Evidence, want) {
		t.Errorf("evidence %q; want %q", v.Evidence, want)
	}
}
