package why

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Cluster API's tree, as `clusterctl describe cluster` builds it
// (cluster-api cmd/clusterctl/client/tree/discovery.go): the Cluster's
// spec.infrastructureRef and spec.controlPlaneRef; the MachineDeployments
// and MachinePools labelled cluster.x-k8s.io/cluster-name with its name;
// the MachineSets a MachineDeployment controls, the Machines a MachineSet
// (or the control plane) controls; and each Machine's
// spec.infrastructureRef and spec.bootstrap.configRef. Templates
// (spec.template's and spec.machineTemplate's *Template references) are
// shown by clusterctl only with --show-templates, as references, never
// judged: the controller copies them, it does not wait for them.
// The owner references and the *Ref fields the walk follows anyway give
// that tree; what is Cluster API's own is below.

// capiLabel names the Cluster an object belongs to.
const capiLabel = "cluster.x-k8s.io/cluster-name"

// isCAPI reports a Cluster API group: the core's and its providers'
// (infrastructure., bootstrap., controlplane.cluster.x-k8s.io).
func isCAPI(group string) bool {
	return group == "cluster.x-k8s.io" || strings.HasSuffix(group, ".cluster.x-k8s.io")
}

// capiTemplate reports a reference from a Cluster API object to a template
// (DockerMachineTemplate, KubeadmConfigTemplate): not a dependency.
func capiTemplate(from string, r ref) bool {
	return isCAPI(from) && isCAPI(r.Group) && strings.HasSuffix(r.Kind, "Template")
}

// capiLabelled reports an object that belongs to the Cluster owner by its
// label, as clusterctl lists a Cluster's MachineDeployments and
// MachinePools (by label, not by owner reference).
func capiLabelled(owner, item *unstructured.Unstructured) bool {
	if owner.GroupVersionKind().Group != "cluster.x-k8s.io" || owner.GetKind() != "Cluster" {
		return false
	}
	gvk := item.GroupVersionKind()
	if gvk.Group != "cluster.x-k8s.io" || (gvk.Kind != "MachineDeployment" && gvk.Kind != "MachinePool") {
		return false
	}
	return item.GetNamespace() == owner.GetNamespace() && item.GetLabels()[capiLabel] == owner.GetName()
}

// capiBootstrapFirst: a Machine's infrastructure provider waits for the
// bootstrap data its bootstrap config writes (the infrastructure machine
// contract: nothing is provisioned before spec.bootstrap.dataSecretName is
// set), so while the bootstrap config is not Current the infrastructure
// machine's "WaitingForBootstrapData" is not the cause: the bootstrap
// config is placed below it, and it alone is the blocker (a maintainer's
// words in cluster-api issue #3683: "the user is required to jump to the
// KubeadmConfig object in order to discover the real reason we are
// waiting").
func capiBootstrapFirst(u *unstructured.Unstructured, n *Node) {
	gvk := u.GroupVersionKind()
	if gvk.Group != "cluster.x-k8s.io" || (gvk.Kind != "Machine" && gvk.Kind != "MachinePool") {
		return
	}
	var infra, boot *Node
	for _, b := range n.Below {
		switch {
		case b.Seen:
		case strings.HasSuffix(b.Via, "spec.infrastructureRef"):
			infra = b
		case strings.HasSuffix(b.Via, "spec.bootstrap.configRef"):
			boot = b
		}
	}
	if infra == nil || boot == nil || boot.Status == Current {
		return
	}
	waits := *boot
	waits.Via, waits.Line, waits.Seen, waits.Below, waits.Blocker = "its bootstrap data ("+boot.Via+")", "the Machine's bootstrap config, shown beside it", true, nil, false
	infra.Below = append(infra.Below, &waits)
}
