package repotest

import (
	"net"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// TestSampleDeployment checks that the sample runs what it says, where
// kubectl backoff finds it: the demo command with real flags, in the demo's
// namespace, listening on the port named "backoff", as a service account
// bound to the demo's Role.
func TestSampleDeployment(t *testing.T) {
	objs := loadManifests(t)
	ns := demo.DefaultNamespace // the demo has no flag to change it
	d := find[*appsv1.Deployment](t, objs, "Deployment", ns, "kubectl-backoff-demo")

	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil || sel.Empty() || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Errorf("selector %v (%v) does not select the pod template's labels %v", d.Spec.Selector, err, d.Spec.Template.Labels)
	}
	if got := len(d.Spec.Template.Spec.Containers); got != 1 {
		t.Fatalf("%d containers, want 1", got)
	}
	c := d.Spec.Template.Spec.Containers[0]

	// The args are a real command line of the binary.
	root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
	cmd, rest, err := root.Find(c.Args)
	if err != nil || cmd.Name() != "demo" {
		t.Fatalf("args %q: command %v, %v; want demo", c.Args, cmd.Name(), err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("args %q: %v", c.Args, err)
	}
	if in, _ := cmd.Flags().GetBool("in-cluster"); !in {
		t.Errorf("args %q: want --in-cluster", c.Args)
	}
	if so, _ := cmd.Flags().GetBool("serve-only"); !so {
		t.Errorf("args %q: want --serve-only (a pod has no terminal)", c.Args)
	}
	listen, _ := cmd.Flags().GetString("listen")
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		t.Fatalf("--listen %q: %v", listen, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		t.Errorf("--listen %q: want a loopback address, reachable only through port-forward", listen)
	}

	// The port discovery looks for, and the one the demo listens on.
	var named *corev1.ContainerPort
	for i := range c.Ports {
		if c.Ports[i].Name == cluster.PortName {
			named = &c.Ports[i]
		}
	}
	if named == nil {
		t.Fatalf("container %s has no port named %q: kubectl backoff would not find the pod", c.Name, cluster.PortName)
	}
	if got := strconv.Itoa(int(named.ContainerPort)); got != port {
		t.Errorf("port %q is %s, but the demo listens on %s", cluster.PortName, got, listen)
	}
	if !strings.HasPrefix(c.Image, "ko://github.com/kubectl-backoff/kubectl-backoff") {
		t.Errorf("image %q: want the ko:// import path of this module", c.Image)
	}

	// Its namespace, as the demo would have labelled it.
	n := find[*corev1.Namespace](t, objs, "Namespace", "", ns)
	if got := n.Labels[demo.PartOfLabel]; got != demo.PartOfValue {
		t.Errorf("namespace %s: label %s = %q, want %q", ns, demo.PartOfLabel, got, demo.PartOfValue)
	}

	// Its service account is bound to the demo's Role (whose rules
	// TestRoleRules checks).
	sa := d.Spec.Template.Spec.ServiceAccountName
	find[*corev1.ServiceAccount](t, objs, "ServiceAccount", ns, sa)
	bound := false
	for _, o := range objs {
		rb, ok := o.obj.(*rbacv1.RoleBinding)
		if !ok || rb.Namespace != ns || rb.RoleRef.Kind != "Role" || rb.RoleRef.Name != "kubectl-backoff-demo" {
			continue
		}
		for _, s := range rb.Subjects {
			bound = bound || (s.Kind == rbacv1.ServiceAccountKind && s.Namespace == ns && s.Name == sa)
		}
	}
	if !bound {
		t.Errorf("no RoleBinding in %s binds Role kubectl-backoff-demo to ServiceAccount %s", ns, sa)
	}
}
