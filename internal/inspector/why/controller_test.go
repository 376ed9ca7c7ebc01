package why

import (
	"context"
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// deployment is a Deployment whose pods run one container.
func deployment(ns, name, container string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: container}}}},
		},
	}
}

// runningPod is a running pod with labels, and a port named "backoff" when instrumented.
func runningPod(ns, name string, labels map[string]string, instrumented bool) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	if instrumented {
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: cluster.PortName, ContainerPort: 8082}}
	}
	return p
}

var (
	certificateGK   = schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}
	kustomizationGK = schema.GroupKind{Group: "kustomize.toolkit.fluxcd.io", Kind: "Kustomization"}
	widgetGK        = schema.GroupKind{Group: "example.com", Kind: "Widget"}
)

// TestFindByName: the three name rules, each on the controllers that name
// their status manager that way.
func TestFindByName(t *testing.T) {
	cs := fake.NewClientset(
		deployment("flux-system", "kustomize-controller", "manager"),
		deployment("cert-manager", "cert-manager", "cert-manager-controller"),
		deployment("cert-manager", "cert-manager-webhook", "cert-manager-webhook"),
		deployment("cert-manager", "cert-manager-cainjector", "cert-manager-cainjector"),
		deployment("capi-system", "capi-controller-manager", "manager"),
		deployment("capd-system", "capd-controller-manager", "manager"),
	)
	f := &Finder{Core: cs}
	for _, tc := range []struct {
		manager     string
		gk          schema.GroupKind
		rule, found string
	}{
		// Flux: the manager is the Deployment's name.
		{"kustomize-controller", kustomizationGK, RuleDeploymentName, "flux-system/deploy/kustomize-controller"},
		// cert-manager: one Deployment runs the controllers whose managers
		// are "cert-manager-<controller>"; the webhook is not a prefix.
		{"cert-manager-certificates-issuing", certificateGK, RuleDeploymentPart, "cert-manager/deploy/cert-manager"},
		{"cert-manager-controller", certificateGK, RuleContainerName, "cert-manager/deploy/cert-manager"},
		// kubebuilder's "manager" container is in every provider (and
		// Flux's): ambiguous.
		{"manager", schema.GroupKind{Group: "cluster.x-k8s.io", Kind: "Machine"}, RuleAmbiguous, ""},
	} {
		c, refused := f.Find(context.Background(), tc.gk, []Change{{Manager: tc.manager}}, nil)
		if len(refused) > 0 {
			t.Errorf("%s: refused %v", tc.manager, refused)
		}
		if got := c.Namespace + "/" + c.Target; c.Rule != tc.rule || (tc.found != "" && got != tc.found) {
			t.Errorf("%s: rule %s found %s; want %s %s (%s)", tc.manager, c.Rule, got, tc.rule, tc.found, c.How)
		}
		if tc.rule == RuleAmbiguous && (len(c.Candidates) != 3 || !strings.Contains(c.How, "--controller-pod")) {
			t.Errorf("%s: ambiguous with candidates %v, how %q; want the three Deployments and --controller-pod", tc.manager, c.Candidates, c.How)
		}
	}
}

// TestFindNoManager: an object whose status nobody wrote has no controller to look for.
func TestFindNoManager(t *testing.T) {
	f := &Finder{Core: fake.NewClientset()}
	c, _ := f.Find(context.Background(), widgetGK, nil, nil)
	if c.Rule != RuleNoManager || c.Found() || !strings.Contains(c.How, "no status manager was found") {
		t.Errorf("rule %s, found %v, how %q; want %s, not found, saying no status manager was found", c.Rule, c.Found(), c.How, RuleNoManager)
	}
}

// TestFindByKind: when no name matches, the instrumented pod whose endpoint
// runs a controller of the object's kind is the controller; the pod that
// runs another kind is not.
func TestFindByKind(t *testing.T) {
	cs := fake.NewClientset(
		runningPod("widgets", "widget-operator-0", nil, true),
		runningPod("gadgets", "gadget-operator-0", nil, true),
		runningPod("other", "plain-0", nil, false),
	)
	runs := map[string][]api.Controller{
		"widgets/widget-operator-0": {{Name: "widget", Kind: &api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}}},
		"gadgets/gadget-operator-0": {{Name: "gadget", Kind: &api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gadget"}}},
	}
	var probed []string
	f := &Finder{Core: cs, Probe: func(_ context.Context, p cluster.Pod) ([]api.Controller, error) {
		probed = append(probed, p.String())
		return runs[p.String()], nil
	}}
	c, _ := f.Find(context.Background(), widgetGK, []Change{{Manager: "manager"}}, nil)
	if c.Rule != RuleInstrumented || c.Namespace != "widgets" || c.Target != "pod/widget-operator-0" || c.Name != "widget" || !c.Instrumented {
		t.Errorf("got %+v; want the widget operator's pod by %s", c, RuleInstrumented)
	}
	if len(probed) != 2 {
		t.Errorf("probed %v; want the two instrumented pods only", probed)
	}
}

// TestFindRefused: a user who may not list Deployments is told which
// permission is missing and what for, and the search goes on.
func TestFindRefused(t *testing.T) {
	cs := fake.NewClientset()
	cs.PrependReactor("list", "deployments", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "", errors.New("RBAC: access denied"))
	})
	f := &Finder{Core: cs}
	c, refused := f.Find(context.Background(), kustomizationGK, []Change{{Manager: "kustomize-controller"}}, nil)
	if len(refused) != 1 {
		t.Fatalf("refused %v; want the list of deployments", refused)
	}
	want := "you may not list deployments in all namespaces (RBAC): it was needed to find the pods of the status manager kustomize-controller"
	if refused[0].Error() != want {
		t.Errorf("refused:\n %s\nwant\n %s", refused[0], want)
	}
	if c.Rule != RuleNotFound || !strings.Contains(c.How, `the pods of the status manager "kustomize-controller" could not be searched for: 1 read refused`) {
		t.Errorf("rule %s, how %q; want %s, saying the search was refused", c.Rule, c.How, RuleNotFound)
	}
}

// TestFindGiven: --controller-pod is used as given, and its pods' port says
// whether they are instrumented.
func TestFindGiven(t *testing.T) {
	cs := fake.NewClientset(runningPod("ops", "ctl-0", nil, true))
	f := &Finder{Core: cs}
	c, _ := f.Find(context.Background(), widgetGK, []Change{{Manager: "x"}}, &Given{Target: cluster.Target{Kind: cluster.KindPod, Name: "ctl-0"}, Namespace: "ops"})
	if c.Rule != RuleGiven || c.Target != "pod/ctl-0" || c.Namespace != "ops" || !c.Instrumented {
		t.Errorf("got %+v; want the given pod, instrumented", c)
	}
}
