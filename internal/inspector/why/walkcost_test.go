package why

import (
	"context"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// capiFanOut is the Cluster API chain with n Machines in its MachineSet,
// each with its DockerMachine (failing) and KubeadmConfig: depth 4 below
// the Cluster, 3n+5 objects.
func capiFanOut(t testing.TB, n int) []*unstructured.Unstructured {
	var objs []*unstructured.Unstructured
	for _, f := range capiCluster {
		objs = append(objs, load(t, f))
	}
	machine, dm, kc := objs[5], objs[7], objs[6]
	for i := 1; i < n; i++ {
		m := machine.DeepCopy()
		m.SetName(fmt.Sprintf("%s-%d", machine.GetName(), i))
		m.SetUID(types.UID(fmt.Sprintf("%s-%d", machine.GetUID(), i)))
		owned := []metav1.OwnerReference{{APIVersion: "cluster.x-k8s.io/v1beta2", Kind: "Machine", Name: m.GetName(), UID: m.GetUID(), Controller: new(true)}}
		objs = append(objs, m)
		for _, o := range []*unstructured.Unstructured{dm, kc} {
			c := o.DeepCopy()
			c.SetName(fmt.Sprintf("%s-%d", o.GetName(), i))
			c.SetUID(types.UID(fmt.Sprintf("%s-%d", o.GetUID(), i)))
			c.SetOwnerReferences(owned)
			objs = append(objs, c)
		}
		_ = unstructured.SetNestedField(m.Object, fmt.Sprintf("%s-%d", dm.GetName(), i), "spec", "infrastructureRef", "name")
		_ = unstructured.SetNestedField(m.Object, fmt.Sprintf("%s-%d", kc.GetName(), i), "spec", "bootstrap", "configRef", "name")
	}
	return objs
}

func countNodes(n *Node) int {
	c := 1
	for _, b := range n.Below {
		c += countNodes(b)
	}
	return c
}

// TestChainOverHTTP: the walk through client-go's real discovery and
// dynamic clients, on an API served over loopback, finds the same chain as
// on the fake, and says how many requests it made.
func TestChainOverHTTP(t *testing.T) {
	s := newAPIServer(t, capiFanOut(t, 3))
	g := s.graph(t)
	g.kinds()
	s.requests.Store(0)
	c := g.Walk(context.Background(), load(t, capiCluster[0]), judgeAlone)
	if got := len(c.Blockers()); got != 3 || c.Blockers()[0].Object.Kind != "DockerMachine" {
		t.Fatalf("blockers %v; want the three DockerMachines (cut %v)\n%s", blockerRefs(c), c.Cut, treeText(c.Root, ""))
	}
	if len(c.Cut) != 0 {
		t.Errorf("cut %v; want nothing cut", c.Cut)
	}
	// Each object but the root read once (a get, or found in a list), and
	// each of the domain's kinds listed once per namespace.
	if n := s.requests.Load(); n != int64(g.requests) || n > 30 {
		t.Errorf("requests: server saw %d, the walk counted %d; want them equal and at most 30", n, g.requests)
	}
}

// TestChainBounded: a cycle of references ends where it closes; a chain
// deeper than Limits.Depth, a fan-out larger than Limits.Objects and a
// walk that would make more than Limits.Requests stop there, each cut
// said, and the requests made never pass the limit.
func TestChainBounded(t *testing.T) {
	ks := func(n int, dependsOn func(i int) []int) []*unstructured.Unstructured {
		var out []*unstructured.Unstructured
		for i := range n {
			u := load(t, "flux-kustomization-ready.yaml")
			u.SetName(fmt.Sprintf("k%d", i))
			u.SetUID(types.UID(fmt.Sprintf("k-%d", i)))
			unstructured.RemoveNestedField(u.Object, "spec", "sourceRef")
			conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
			conds[0].(map[string]any)["status"] = "False"
			_ = unstructured.SetNestedSlice(u.Object, conds, "status", "conditions")
			var deps []any
			for _, d := range dependsOn(i) {
				deps = append(deps, map[string]any{"name": fmt.Sprintf("k%d", d)})
			}
			_ = unstructured.SetNestedSlice(u.Object, deps, "spec", "dependsOn")
			out = append(out, u)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		objs []*unstructured.Unstructured
		lim  Limits
		cut  string // "" when nothing is cut
		seen bool   // a node reached a second time
	}{
		{name: "a cycle of two", objs: ks(2, func(i int) []int { return []int{1 - i} }), seen: true},
		{name: "a cycle of ten, each naming all", objs: ks(10, func(i int) []int {
			var all []int
			for j := range 10 {
				if j != i {
					all = append(all, j)
				}
			}
			return all
		}), lim: Limits{Depth: 20}, seen: true},
		{name: "a chain of 100", objs: ks(100, func(i int) []int { return []int{min(i+1, 99)} }), cut: "depth 5 reached at kustomization.kustomize.toolkit.fluxcd.io/k5"},
		{name: "a fan-out of 300", objs: ks(300, func(i int) []int {
			if i > 0 {
				return nil
			}
			var all []int
			for j := 1; j < 300; j++ {
				all = append(all, j)
			}
			return all
		}), cut: "object limit (40) reached"},
		{name: "a request limit", objs: capiFanOut(t, 20), lim: Limits{Requests: 12}, cut: "request limit (12) reached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newAPIServer(t, tc.objs)
			g := s.graph(t)
			g.Limits = tc.lim
			g.kinds()
			s.requests.Store(0)
			c := g.Walk(context.Background(), tc.objs[0], judgeAlone)
			cut := strings.Join(c.Cut, "\n")
			switch {
			case tc.cut == "" && cut != "":
				t.Errorf("cut %q; want nothing cut", cut)
			case !strings.Contains(cut, tc.cut):
				t.Errorf("cut %q; want %q", cut, tc.cut)
			}
			lim := g.Limits.withDefaults()
			if n := s.requests.Load(); n > int64(lim.Requests) {
				t.Errorf("%d requests; the limit is %d", n, lim.Requests)
			}
			if nodes := countNodes(c.Root); nodes > lim.Objects*(lim.Children+2) {
				t.Errorf("%d nodes for a limit of %d objects", nodes, lim.Objects)
			}
			if tc.seen && !strings.Contains(treeText(c.Root, ""), "shown above") {
				t.Errorf("no node marked as reached again:\n%s", treeText(c.Root, ""))
			}
		})
	}
}

// BenchmarkChainWalk: one walk of the Cluster API chain (depth 4, fan-out
// n Machines each with two children) over HTTP on loopback, beside its
// floor: one GET of each object the chain holds, the least any walk of it
// must read. Reports requests per walk and the chain's nodes.
func BenchmarkChainWalk(b *testing.B) {
	for _, n := range []int{1, 5, 10} {
		objs := capiFanOut(b, n)
		b.Run(fmt.Sprintf("machines=%d/walk", n), func(b *testing.B) {
			s := newAPIServer(b, objs)
			g := s.graph(b)
			g.kinds()
			s.requests.Store(0)
			var nodes int
			b.ReportAllocs()
			for b.Loop() {
				nodes = countNodes(g.Walk(context.Background(), objs[0], judgeAlone).Root)
			}
			b.ReportMetric(float64(s.requests.Load())/float64(b.N), "requests/walk")
			b.ReportMetric(float64(nodes), "nodes")
		})
		b.Run(fmt.Sprintf("machines=%d/get-each", n), func(b *testing.B) {
			s := newAPIServer(b, objs)
			g := s.graph(b)
			g.kinds()
			type target struct {
				k        kindInfo
				ns, name string
			}
			var targets []target
			for _, u := range objs {
				k, ok := g.resolve(u.GroupVersionKind().Group, u.GetKind(), true, "")
				if !ok {
					b.Fatalf("%s not served", u.GetKind())
				}
				targets = append(targets, target{k, u.GetNamespace(), u.GetName()})
			}
			s.requests.Store(0)
			b.ReportAllocs()
			for b.Loop() {
				g.requests = 0
				for _, tg := range targets {
					if u, err := g.get(context.Background(), tg.k, tg.ns, tg.name); err != nil || u == nil {
						b.Fatalf("get %s: %v", tg.name, err)
					}
				}
			}
			b.ReportMetric(float64(s.requests.Load())/float64(b.N), "requests/walk")
			b.ReportMetric(float64(len(objs)), "nodes")
		})
	}
}
