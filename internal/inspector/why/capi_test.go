package why

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// capiCluster are the objects of the Cluster API chain: a Cluster whose
// MachineDeployment (verbatim, cluster-api #13738) rolls out a Machine
// whose DockerMachine cannot create its container.
var capiCluster = []string{"chain/capi-cluster-workload-docker-01.yaml", "chain/capi-dockercluster-workload-docker-01.yaml",
	"chain/capi-kubeadmcontrolplane-available.yaml", "capi-machinedeployment-rollingout.yaml", "chain/capi-machineset-wave-1.yaml",
	"chain/capi-machine-wave-1.yaml", "chain/capi-kubeadmconfig-wave-1.yaml", "chain/capi-dockermachine-wave-1.yaml"}

func judgeAlone(x *unstructured.Unstructured, _ string) Verdict { return Judge(x) }

func refsIn(n *Node) []string {
	out := []string{n.Object.Ref()}
	for _, b := range n.Below {
		out = append(out, refsIn(b)...)
	}
	return out
}

// TestChainClusterAPI: from the Cluster, the walk goes as clusterctl
// describe does — its infrastructure and control plane, its
// MachineDeployment, that one's MachineSet, its Machine, and the Machine's
// infrastructure and bootstrap config — never into templates; the blocker
// is the DockerMachine whose container cannot be created, as a Cluster API
// maintainer reads the tree (the Machine only mirrors it).
func TestChainClusterAPI(t *testing.T) {
	for _, tc := range []struct {
		name string
		// unlabelledOwner drops the MachineDeployment's owner reference:
		// clusterctl finds it by its cluster-name label alone.
		dropOwner bool
		via       string
	}{
		{name: "by owner references", via: "owner reference"},
		{name: "a MachineDeployment found by its cluster-name label", dropOwner: true, via: "label cluster.x-k8s.io/cluster-name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graphOf(t, capiCluster...)
			if tc.dropOwner {
				gvr := schema.GroupVersionResource{Group: "cluster.x-k8s.io", Version: "v1beta2", Resource: "machinedeployments"}
				r := g.Dynamic.Resource(gvr).Namespace("c-workload-docker-01")
				md, err := r.Get(context.Background(), "workload-docker-01-wave-1", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				md.SetOwnerReferences(nil)
				if _, err := r.Update(context.Background(), md, metav1.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			c := g.Walk(context.Background(), load(t, capiCluster[0]), judgeAlone)
			want := []string{"dockermachine.infrastructure.cluster.x-k8s.io/workload-docker-01-wave-1-jv4tq"}
			if got := blockerRefs(c); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("blockers %v; want %v (cut %v)\n%s", got, want, c.Cut, treeText(c.Root, ""))
			}
			b := c.Blockers()[0]
			if want := "Ready=False (ContainerProvisioningFailed): container could not be created"; b.Line != want {
				t.Errorf("blocker line %q; want %q", b.Line, want)
			}
			var path, vias []string
			for _, n := range c.Path(b) {
				path, vias = append(path, n.Object.Ref()), append(vias, n.Via)
			}
			wantPath := []string{"cluster.cluster.x-k8s.io/workload-docker-01", "machinedeployment.cluster.x-k8s.io/workload-docker-01-wave-1",
				"machineset.cluster.x-k8s.io/workload-docker-01-wave-1-7xk2p", "machine.cluster.x-k8s.io/workload-docker-01-wave-1-7xk2p-jv4tq", want[0]}
			if strings.Join(path, " ") != strings.Join(wantPath, " ") {
				t.Errorf("path %v; want %v", path, wantPath)
			}
			if vias[1] != tc.via || vias[4] != "spec.infrastructureRef" {
				t.Errorf("vias %q; want the MachineDeployment by %q and the DockerMachine by spec.infrastructureRef", vias, tc.via)
			}
			all := strings.Join(refsIn(c.Root), " ")
			for _, reached := range []string{"dockercluster.infrastructure.cluster.x-k8s.io/workload-docker-01",
				"kubeadmcontrolplane.controlplane.cluster.x-k8s.io/workload-docker-01-control-plane", "kubeadmconfig.bootstrap.cluster.x-k8s.io/workload-docker-01-wave-1-jv4tq"} {
				if !strings.Contains(all, reached) {
					t.Errorf("%s not in the tree:\n%s", reached, treeText(c.Root, ""))
				}
			}
			if strings.Contains(all, "template") || strings.Contains(strings.Join(c.Cut, " "), "Template") {
				t.Errorf("a template was followed: tree %s, cut %v", all, c.Cut)
			}
		})
	}
}

// TestChainClusterAPIBootstrapFirst: cluster-api issue #3683's tree — the
// DockerMachine says WaitingForBootstrapData, its Machine's KubeadmConfig
// says WaitingForControlPlaneAvailable — names the KubeadmConfig alone: the
// maintainer's "the real reason we are waiting".
func TestChainClusterAPIBootstrapFirst(t *testing.T) {
	files := []string{"chain/capi-machine-test1-md-0.yaml", "chain/capi-kubeadmconfig-test1-md-0-waiting.yaml", "chain/capi-dockermachine-test1-waiting.yaml"}
	g := graphOf(t, files...)
	c := g.Walk(context.Background(), load(t, files[0]), judgeAlone)
	want := "kubeadmconfig.bootstrap.cluster.x-k8s.io/test1-md-0-dv9m9"
	if got := blockerRefs(c); strings.Join(got, " ") != want {
		t.Fatalf("blockers %v; want %s alone\n%s", got, want, treeText(c.Root, ""))
	}
	if line := c.Blockers()[0].Line; line != "Ready=False (WaitingForControlPlaneAvailable): 0 of 2 completed" {
		t.Errorf("blocker line %q", line)
	}
	var infra *Node
	for _, b := range c.Root.Below {
		if b.Object.Kind == "DockerMachine" {
			infra = b
		}
	}
	if infra == nil || infra.Blocker || len(infra.Below) != 1 || infra.Below[0].Object.Ref() != want || !infra.Below[0].Seen {
		t.Errorf("the DockerMachine %+v; want it waiting for the KubeadmConfig, not a blocker", infra)
	}
	// Once the bootstrap data is there, the DockerMachine is the blocker again.
	g = graphOf(t, "chain/capi-machine-test1-md-0.yaml", "chain/capi-dockermachine-test1-waiting.yaml", "chain/capi-kubeadmconfig-test1-md-0-waiting.yaml")
	gvr := schema.GroupVersionResource{Group: "bootstrap.cluster.x-k8s.io", Version: "v1beta1", Resource: "kubeadmconfigs"}
	r := g.Dynamic.Resource(gvr).Namespace("default")
	kc, err := r.Get(context.Background(), "test1-md-0-dv9m9", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = unstructured.SetNestedSlice(kc.Object, []any{map[string]any{"type": "Ready", "status": "True"}}, "status", "conditions")
	if _, err := r.Update(context.Background(), kc, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	c = g.Walk(context.Background(), load(t, files[0]), judgeAlone)
	if got := strings.Join(blockerRefs(c), " "); got != "dockermachine.infrastructure.cluster.x-k8s.io/test1-5tqgb" {
		t.Errorf("bootstrap ready: blockers %s; want the DockerMachine", got)
	}
}
