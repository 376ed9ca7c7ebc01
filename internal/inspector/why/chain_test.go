package why

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// clusterScoped are the fixtures' kinds that have no namespace.
var clusterScoped = map[string]bool{"Namespace": true, "APIService": true, "MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true, "ClusterIssuer": true, "XPostgreSQLInstance": true,
	"Composition": true, "ManagedSSLCertificate": true}

// graphOf is a Graph over the objects of testdata files ("kind:FILE" for
// the file's kind only), as a cluster
// serving their kinds would hold them (and Pods and ReplicaSets, which the
// built-ins' children are looked up in).
func graphOf(t *testing.T, files ...string) *Graph {
	t.Helper()
	var objs []runtime.Object
	listKinds := map[schema.GroupVersionResource]string{}
	byGV := map[string][]metav1.APIResource{}
	add := func(gvk schema.GroupVersionKind) {
		res := pluralGuess(gvk.Kind)
		gvr := gvk.GroupVersion().WithResource(res)
		if _, ok := listKinds[gvr]; ok {
			return
		}
		listKinds[gvr] = gvk.Kind + "List"
		byGV[gvk.GroupVersion().String()] = append(byGV[gvk.GroupVersion().String()], metav1.APIResource{
			Name: res, Kind: gvk.Kind, Namespaced: !clusterScoped[gvk.Kind], Verbs: metav1.Verbs{"get", "list"}})
	}
	add(schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
	add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"})
	for _, f := range files {
		// "kind:FILE" serves the file's kind without the object.
		kindOnly := strings.HasPrefix(f, "kind:")
		u := load(t, strings.TrimPrefix(f, "kind:"))
		add(u.GroupVersionKind())
		if !kindOnly {
			objs = append(objs, u)
		}
	}
	cs := fake.NewClientset()
	for gv, rs := range byGV {
		cs.Resources = append(cs.Resources, &metav1.APIResourceList{GroupVersion: gv, APIResources: rs})
	}
	return &Graph{Dynamic: dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objs...), Discovery: cs.Discovery()}
}

func blockerRefs(c *Chain) []string {
	var out []string
	for _, b := range c.Blockers() {
		out = append(out, b.Object.Ref())
	}
	return out
}

// TestChainBlockers walks each project's chain from the object the user
// asks about and names the blocker a maintainer of that project would.
func TestChainBlockers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start string
		more  []string
		// blockers, and what the first one's line must say.
		blockers []string
		line     string
		// path are the refs from the start to the first blocker.
		path []string
	}{
		{name: "flux helmrelease waits for its chart, which waits for a repository that cannot authenticate",
			start: "chain/flux-helmrelease-test.yaml", more: []string{"chain/flux-helmchart-default-test.yaml", "chain/flux-helmrepository-test.yaml"},
			blockers: []string{"helmrepository.source.toolkit.fluxcd.io/test"}, line: "401 Unauthorized",
			path: []string{"helmrelease.helm.toolkit.fluxcd.io/test", "helmchart.source.toolkit.fluxcd.io/default-test", "helmrepository.source.toolkit.fluxcd.io/test"}},
		{name: "cert-manager certificate waits for its request, order and a failing challenge",
			start: "certmanager-certificate-issuing.yaml",
			more: []string{"chain/certmanager-clusterissuer-ready.yaml", "chain/certmanager-certificaterequest-pending.yaml",
				"chain/certmanager-order-pending.yaml", "chain/certmanager-challenge-pending.yaml"},
			blockers: []string{"challenge.acme.cert-manager.io/defaults-example-certificate-tls-1-2905949435-3652955055"},
			line:     "Waiting for HTTP-01 challenge propagation: failed to perform self check GET request",
			path: []string{"certificate.cert-manager.io/defaults-example-certificate-tls", "certificaterequest.cert-manager.io/defaults-example-certificate-tls-1",
				"order.acme.cert-manager.io/defaults-example-certificate-tls-1-2905949435", "challenge.acme.cert-manager.io/defaults-example-certificate-tls-1-2905949435-3652955055"}},
		{name: "cert-manager certificate whose issuer does not exist: each object that names it waits for it, and it alone is named",
			start: "certmanager-certificate-issuing.yaml",
			more: []string{"kind:chain/certmanager-clusterissuer-ready.yaml", "chain/certmanager-certificaterequest-pending.yaml",
				"chain/certmanager-order-pending.yaml", "chain/certmanager-challenge-pending.yaml"},
			blockers: []string{"clusterissuer.cert-manager.io/our-corp-issuer"},
			line:     "spec.issuerRef names it, and it does not exist"},
		{name: "crossplane composite waits for a composed resource whose sync fails",
			start: "chain/crossplane-xpostgresqlinstance.yaml", more: []string{"chain/crossplane-composition.yaml", "crossplane-managedsslcertificate-syncfailed.yaml"},
			blockers: []string{"managedsslcertificate.compute.gcp.upbound.io/message-processor-app"}, line: "Synced=False (ReconcileError)",
			path: []string{"xpostgresqlinstance.database.example.org/my-db-ggvz9", "managedsslcertificate.compute.gcp.upbound.io/message-processor-app"}},
		{name: "namespace stuck terminating on an unavailable APIService",
			start: "chain/namespace-metrics-terminating.yaml", more: []string{"chain/apiservice-metrics-unavailable.yaml"},
			blockers: []string{"apiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io"},
			line:     `Available=False (ServiceNotFound): service/metrics-server in "kube-system" is not present`},
		{name: "deployment waits for a replicaset whose pod cannot pull its image",
			start: "deployment-replicafailure.yaml", more: []string{"chain/replicaset-quota.yaml", "chain/pod-imagepullbackoff.yaml"},
			blockers: []string{"pod/test-imagepullbackoff-6c787c4445-hrt4h"}, line: `container nginx ImagePullBackOff: Back-off pulling image "nginx:does-not-exist"`,
			path: []string{"deployment.apps/nginx-deployment", "replicaset.apps/nginx-deployment-4262182780", "pod/test-imagepullbackoff-6c787c4445-hrt4h"}},
		{name: "deployment waits for a replicaset the quota refuses pods",
			start: "deployment-replicafailure.yaml", more: []string{"chain/replicaset-quota.yaml"},
			blockers: []string{"replicaset.apps/nginx-deployment-4262182780"}, line: "exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2",
			path: []string{"deployment.apps/nginx-deployment", "replicaset.apps/nginx-deployment-4262182780"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graphOf(t, append([]string{tc.start}, tc.more...)...)
			u := load(t, tc.start)
			if u.GetKind() == "Deployment" {
				u.SetUID("4c0f7b3e-2f0a-4f4e-8e5e-000000000001") // the ReplicaSet's owner (the documentation's object has no uid)
			}
			c := g.Walk(context.Background(), u, func(x *unstructured.Unstructured, _ string) Verdict { return Judge(x) })
			if got := blockerRefs(c); strings.Join(got, " ") != strings.Join(tc.blockers, " ") {
				t.Fatalf("blockers %v; want %v (cut %v)\n%s", got, tc.blockers, c.Cut, treeText(c.Root, ""))
			}
			first := c.Blockers()[0]
			if !strings.Contains(first.Line, tc.line) {
				t.Errorf("blocker line %q lacks %q", first.Line, tc.line)
			}
			if tc.path != nil {
				var path []string
				for _, n := range c.Path(first) {
					path = append(path, n.Object.Ref())
				}
				if strings.Join(path, " ") != strings.Join(tc.path, " ") {
					t.Errorf("path %v; want %v", path, tc.path)
				}
			}
		})
	}
}

// treeText is a chain for a failure's message.
func treeText(n *Node, indent string) string {
	s := indent + n.Object.Ref() + " [" + n.Via + "] " + n.Status + " " + n.Line + "\n"
	for _, b := range n.Below {
		s += treeText(b, indent+"  ")
	}
	return s
}

// TestChainLimits: a walk cut by its object limit or its depth says so.
func TestChainLimits(t *testing.T) {
	files := []string{"certmanager-certificate-issuing.yaml", "chain/certmanager-clusterissuer-ready.yaml", "chain/certmanager-certificaterequest-pending.yaml",
		"chain/certmanager-order-pending.yaml", "chain/certmanager-challenge-pending.yaml"}
	judge := func(x *unstructured.Unstructured, _ string) Verdict { return Judge(x) }
	for _, tc := range []struct {
		lim  Limits
		want string
	}{
		{Limits{Objects: 2}, "object limit (2) reached"},
		{Limits{Depth: 1}, "depth 1 reached at certificaterequest.cert-manager.io/defaults-example-certificate-tls-1"},
	} {
		g := graphOf(t, files...)
		g.Limits = tc.lim
		c := g.Walk(context.Background(), load(t, files[0]), judge)
		if !strings.Contains(strings.Join(c.Cut, "\n"), tc.want) {
			t.Errorf("limits %+v: cut %v; want %q", tc.lim, c.Cut, tc.want)
		}
	}
}

// TestAskChain: the answer for a Deployment whose ReplicaSet the quota
// refuses names the ReplicaSet and the quota message, and answers for the
// ReplicaSet (its controller: kube-controller-manager, a static pod).
func TestAskChain(t *testing.T) {
	u := load(t, "deployment-replicafailure.yaml")
	u.SetUID("4c0f7b3e-2f0a-4f4e-8e5e-000000000001")
	managedBy(u, "kubectl-client-side-apply", now.Add(-10*time.Minute), "kube-controller-manager")
	g := graphOf(t, "deployment-replicafailure.yaml", "chain/replicaset-quota.yaml")
	a := &Asker{Finder: &Finder{Core: fake.NewClientset(staticPod("cp-1"))}, Keys: &fakeKeys{log: &Backoff{Source: SourceLogs, NotTracked: "no line"}},
		Graph: g, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "deployments")
	want := `InProgress: it waits for replicaset.apps/nginx-deployment-4262182780 (owner reference), which is InProgress: ReplicaFailure=True (FailedCreate): pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2.`
	if ans.Summary != want {
		t.Errorf("summary\n %s\nwant\n %s", ans.Summary, want)
	}
	if len(ans.Blockers) != 1 || ans.Blockers[0].Object.Name != "nginx-deployment-4262182780" {
		t.Fatalf("blockers %+v; want the ReplicaSet's answer", ans.Blockers)
	}
	if c := ans.Controller; c == nil || c.Target != "pod/kube-controller-manager-cp-1" {
		t.Errorf("controller %+v; want kube-controller-manager's static pod", c)
	}
}

// TestGraphListPaged: a kind's objects are listed page by page (Limit,
// then Continue), and a list longer than Limits.ListItems is cut, and said.
func TestGraphListPaged(t *testing.T) {
	g := graphOf(t, "deployment-replicafailure.yaml")
	fakeDyn := g.Dynamic.(*dynamicfake.FakeDynamicClient)
	rs := load(t, "chain/replicaset-quota.yaml")
	var limits []int64
	fakeDyn.PrependReactor("list", "replicasets", func(action k8stesting.Action) (bool, runtime.Object, error) {
		opts := action.(k8stesting.ListActionImpl).GetListOptions()
		limits = append(limits, opts.Limit)
		page := rs.DeepCopy()
		l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSetList"}}
		switch opts.Continue {
		case "":
			page.SetName("first")
			l.SetContinue("page-2")
		case "page-2":
			page.SetName("second")
			page.SetUID("another")
			l.SetContinue("page-3")
		default:
			t.Errorf("continue %q: the list went past its limit", opts.Continue)
		}
		l.Items = []unstructured.Unstructured{*page}
		return true, l, nil
	})
	g.Limits = Limits{Page: 1, ListItems: 2}
	u := load(t, "deployment-replicafailure.yaml")
	u.SetUID("4c0f7b3e-2f0a-4f4e-8e5e-000000000001")
	c := g.Walk(context.Background(), u, func(x *unstructured.Unstructured, _ string) Verdict { return Judge(x) })
	var names []string
	for _, n := range c.Root.Below {
		names = append(names, n.Object.Name)
	}
	if strings.Join(names, ",") != "first,second" {
		t.Errorf("children %v; want the ReplicaSets of both pages", names)
	}
	if len(limits) != 2 || limits[0] != 1 {
		t.Errorf("list limits %v; want two pages of 1", limits)
	}
	if !strings.Contains(strings.Join(c.Cut, "\n"), "replicasets in namespace default: only the first 2 read") {
		t.Errorf("cut %v; want the list's cut said", c.Cut)
	}
}

// TestChainSummaryCurrentRoot: an object reconciled itself keeps its own
// answer; what below it is not Current is said as a next step.
func TestChainSummaryCurrentRoot(t *testing.T) {
	child := &Node{Object: Object{APIVersion: "e2e.kubectl-backoff.io/v1", Kind: "Widget", Name: "w-fail"}, Via: "spec.dependsOn", Status: InProgress, Line: "Widget generation is 2, but latest observed generation is 1", Blocker: true}
	a := &Answer{Verdict: Verdict{Status: Current}, Summary: "Current: the latest change is reconciled, nothing to wait for.",
		Chain: &Chain{Root: &Node{Status: Current, Below: []*Node{child}}}}
	s, next := chainSummary(a)
	if s != a.Summary || len(next) != 1 || !strings.Contains(next[0], "Below it, not Current: widget.e2e.kubectl-backoff.io/w-fail (spec.dependsOn), which is InProgress") {
		t.Errorf("summary %q, next %v; want its own summary, the Widget said below", s, next)
	}
}

// TestAskChainProgressDeadline: a Deployment past its progress deadline,
// its pods running and never ready, is Failed by its own Progressing
// condition, and the answer names both pods as what it waits for.
func TestAskChainProgressDeadline(t *testing.T) {
	u := load(t, "deployment-progressdeadline.yaml")
	managedBy(u, "kubectl-client-side-apply", now.Add(-time.Minute), "kube-controller-manager")
	g := graphOf(t, "deployment-progressdeadline.yaml", "chain/replicaset-notready.yaml", "chain/pod-notready-qk7q5.yaml", "chain/pod-notready-v5hq5.yaml")
	a := &Asker{Graph: g, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "deployments")
	pod := func(name string) string {
		return "pod/" + name + " (owner reference), which is InProgress: Running, not ready (ContainersNotReady: containers with unready status: [web])"
	}
	// The ReplicaSet both pods are under is said once, not once per pod.
	want := `Failed: Progressing=False (ProgressDeadlineExceeded): ReplicaSet "web-5f9c9d5cf8" has timed out progressing; it waits for ` +
		`replicaset.apps/web-5f9c9d5cf8 (owner reference), which waits for ` + pod("web-5f9c9d5cf8-qk7q5") +
		`, and for ` + pod("web-5f9c9d5cf8-v5hq5") + "."
	if ans.Summary != want {
		t.Errorf("summary\n %s\nwant\n %s", ans.Summary, want)
	}
	if got := blockerRefs(ans.Chain); strings.Join(got, " ") != "pod/web-5f9c9d5cf8-qk7q5 pod/web-5f9c9d5cf8-v5hq5" {
		t.Errorf("blockers %v; want the two pods", got)
	}
}

// TestAskObject: a node of a chain, named as the chain names it, is read
// again and answered for with its own chain (or its chain alone:
// ChainOf); one that is gone says so.
func TestAskObject(t *testing.T) {
	g := graphOf(t, "deployment-progressdeadline.yaml", "chain/replicaset-notready.yaml", "chain/pod-notready-qk7q5.yaml", "chain/pod-notready-v5hq5.yaml")
	a := &Asker{Graph: g, Now: func() time.Time { return now }}
	rs := Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "rollout", Name: "web-5f9c9d5cf8"}
	ans, err := a.AskObject(context.Background(), rs)
	if err != nil {
		t.Fatal(err)
	}
	if got := blockerRefs(ans.Chain); strings.Join(got, " ") != "pod/web-5f9c9d5cf8-qk7q5 pod/web-5f9c9d5cf8-v5hq5" || ans.Object.Resource != "replicasets" {
		t.Errorf("answer for %s: resource %q, blockers %v; want its two pods", rs.Ref(), ans.Object.Resource, got)
	}
	c, err := a.ChainOf(context.Background(), Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "rollout", Name: "web"})
	if err != nil || strings.Join(blockerRefs(c), " ") != "pod/web-5f9c9d5cf8-qk7q5 pod/web-5f9c9d5cf8-v5hq5" {
		t.Errorf("ChainOf the Deployment: %v (%v); want its two pods as blockers", blockerRefs(c), err)
	}
	rs.Name = "web-gone"
	if _, err := a.AskObject(context.Background(), rs); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("a gone object: %v; want not found", err)
	}
}
