package why

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
)

// TestChainNotReconciled: in a chain, a custom resource no controller has
// written a status for (its kind has a status subresource) is not Current:
// it is the blocker, and its line says so — the same verdict as `why` and
// `why TYPE -A` give it (TestListNotReconciled).
func TestChainNotReconciled(t *testing.T) {
	files := []string{"certmanager-certificate-issuing.yaml", "chain/certmanager-clusterissuer-ready.yaml", "chain/certmanager-certificaterequest-pending.yaml"}
	g := graphOf(t, files...)
	gvr := schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificaterequests"}
	r := g.Dynamic.Resource(gvr).Namespace("default")
	cr, err := r.Get(context.Background(), "defaults-example-certificate-tls-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	delete(cr.Object, "status")
	if _, err := r.Update(context.Background(), cr, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := fake.NewClientset()
	cs.Resources = []*metav1.APIResourceList{{GroupVersion: "cert-manager.io/v1", APIResources: []metav1.APIResource{
		{Name: "certificaterequests", Kind: "CertificateRequest", Namespaced: true},
		{Name: "certificaterequests/status", Kind: "CertificateRequest", Namespaced: true},
	}}}
	a := &Asker{Kinds: &DiscoveryKinds{Discovery: cs.Discovery()}, Graph: g}
	c := g.Walk(context.Background(), load(t, files[0]), func(x *unstructured.Unstructured, res string) Verdict { return a.judge(context.Background(), x, res) })
	want := "certificaterequest.cert-manager.io/defaults-example-certificate-tls-1"
	if got := strings.Join(blockerRefs(c), " "); got != want {
		t.Fatalf("blockers %s; want %s\n%s", got, want, treeText(c.Root, ""))
	}
	if b := c.Blockers()[0]; b.Status != InProgress || !strings.Contains(b.Line, "no controller has written its status yet") {
		t.Errorf("blocker %s %q; want InProgress, not reconciled yet", b.Status, b.Line)
	}
}
