package why

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
)

// TestFindByLogKind: two kubebuilder operators, each a Deployment with a
// container "manager" writing status as "manager": the search is
// ambiguous by name, and each one's log says which kinds it reconciles
// (the operators' real start lines), so each object's controller is found,
// and the rule is said.
func TestFindByLogKind(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "logs", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	logs := map[string]string{
		"3scale/deploy/threescale-operator-controller-manager-v2": read("3scale-operator-starting.log"),
		"ramen-system/deploy/ramen-hub-operator":                  read("ramen-starting.log"),
	}
	var asked []string
	reader := func(_ context.Context, ns, target, container string, head, tail int64) (string, error) {
		asked = append(asked, ns+"/"+target+" "+container)
		if head > 0 {
			return logs[ns+"/"+target], nil
		}
		return "", nil // the tail: no reconcile line since
	}
	cs := fake.NewClientset(deployment("3scale", "threescale-operator-controller-manager-v2", "manager"), deployment("ramen-system", "ramen-hub-operator", "manager"))
	managers := []Change{{Manager: "manager"}}
	for _, tc := range []struct {
		gk   schema.GroupKind
		want string
	}{
		{schema.GroupKind{Group: "capabilities.3scale.net", Kind: "Backend"}, "3scale/deploy/threescale-operator-controller-manager-v2"},
		{schema.GroupKind{Group: "ramendr.openshift.io", Kind: "DRPlacementControl"}, "ramen-system/deploy/ramen-hub-operator"},
	} {
		f := &Finder{Core: cs, Logs: reader}
		c, _ := f.Find(context.Background(), tc.gk, managers, nil)
		if c.Rule != RuleLogKind || c.Namespace+"/"+c.Target != tc.want || !strings.Contains(c.How, "that rule decided") {
			t.Errorf("%s: controller %+v; want %s by %s, the rule said", tc.gk, c, tc.want, RuleLogKind)
		}
	}
	// A kind neither log names stays ambiguous: never a guess.
	f := &Finder{Core: cs, Logs: reader}
	if c, _ := f.Find(context.Background(), schema.GroupKind{Group: "example.com", Kind: "Widget"}, managers, nil); c.Rule != RuleAmbiguous {
		t.Errorf("Widget: %+v; want ambiguous", c)
	}
	if len(asked) == 0 || !strings.HasSuffix(asked[0], " manager") {
		t.Errorf("logs read %v; want the container named as the manager", asked)
	}
}

// TestKindIn: the formats controller-runtime has logged its controllers in.
func TestKindIn(t *testing.T) {
	gk := schema.GroupKind{Group: "cluster.x-k8s.io", Kind: "MachineDeployment"}
	for _, tc := range []struct {
		line string
		want bool
	}{
		// kubernetes-sigs/controller-runtime PR #1687 (klog, before v0.11).
		{`I1007 19:21:44.376485   72015 controller.go:186] controller/machinedeployment "msg"="Starting Controller" "reconciler group"="cluster.x-k8s.io" "reconciler kind"="MachineDeployment" `, true},
		{`{"level":"info","msg":"Starting Controller","controller":"md","controllerGroup":"cluster.x-k8s.io","controllerKind":"MachineDeployment"}`, true},
		{`{"level":"info","msg":"Starting Controller","controller":"md","controllerGroup":"other.io","controllerKind":"MachineDeployment"}`, false},
		{`{"level":"info","msg":"Starting Controller","controller":"md","controllerGroup":"cluster.x-k8s.io","controllerKind":"MachineDeploymentX"}`, false},
	} {
		if got := kindIn(tc.line, gk); got != tc.want {
			t.Errorf("kindIn(%s) = %v; want %v", tc.line, got, tc.want)
		}
	}
}
