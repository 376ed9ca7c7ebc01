package why

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
)

var deploymentGK = schema.GroupKind{Group: "apps", Kind: "Deployment"}

// staticPod is kube-controller-manager as kubeadm runs it: a static pod of
// the node, in kube-system, labelled component/tier (kubeadm's manifests),
// owned by the Node, in no Deployment.
func staticPod(node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "kube-controller-manager-" + node,
			Labels:          map[string]string{"component": "kube-controller-manager", "tier": "control-plane"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node}}},
		Spec:   corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "kube-controller-manager"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
}

// TestFindStaticPod: kube-controller-manager is found by its container's
// name, owned by no Deployment; with three control-plane nodes, by the
// labels its pods share.
func TestFindStaticPod(t *testing.T) {
	managers := []Change{{Manager: "kube-controller-manager"}}
	f := &Finder{Core: fake.NewClientset(staticPod("cp-1"))}
	c, refused := f.Find(context.Background(), deploymentGK, managers, nil)
	if c.Rule != RulePodContainer || c.Target != "pod/kube-controller-manager-cp-1" || c.Namespace != "kube-system" || len(refused) > 0 || c.NotRunning != "" {
		t.Errorf("controller %+v, refused %v; want pod/kube-controller-manager-cp-1 in kube-system by %s, running", c, refused, RulePodContainer)
	}
	f = &Finder{Core: fake.NewClientset(staticPod("cp-1"), staticPod("cp-2"), staticPod("cp-3"))}
	c, _ = f.Find(context.Background(), deploymentGK, managers, nil)
	if c.Rule != RulePodContainer || c.Selector != "component=kube-controller-manager,tier=control-plane" || c.Target != "-l "+c.Selector {
		t.Errorf("controller %+v; want the three pods by their shared labels", c)
	}
}

// TestAskControlPlaneHidden: a Deployment whose status manager is
// kube-controller-manager, in a cluster where no pod of it shows (a managed
// control plane): said so, no --controller-pod asked for, and the answer is
// the ReplicaFailure condition, whole.
func TestAskControlPlaneHidden(t *testing.T) {
	u := load(t, "deployment-replicafailure.yaml")
	managedBy(u, "kubectl-client-side-apply", now.Add(-10*time.Minute), "kube-controller-manager")
	keys := &fakeKeys{}
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Keys: keys, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "deployments")
	if c := ans.Controller; c.Rule != RuleControlPlane || !strings.Contains(c.How, "the control plane is managed") {
		t.Errorf("controller %+v; want %s saying the control plane is managed", c, RuleControlPlane)
	}
	all := ans.Summary + "\n" + strings.Join(ans.Next, "\n")
	if strings.Contains(all, "--controller-pod") || len(keys.asked) > 0 {
		t.Errorf("answer asks for --controller-pod or read a key (%v):\n%s", keys.asked, all)
	}
	want := `ReplicaFailure=True (FailedCreate): Error creating: pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`
	if !strings.Contains(ans.Summary, want) {
		t.Errorf("summary\n %s\nlacks\n %s", ans.Summary, want)
	}
}

// TestAskControllerDown: the status manager's Deployment has no running
// pod — scaled to zero, or crash-looping: that is the answer, with the
// Deployment's state, and no log is read (no "--from-logs" in the words).
func TestAskControllerDown(t *testing.T) {
	u := load(t, "certmanager-certificate-issuing.yaml")
	managedBy(u, "kubectl-client-side-apply", now.Add(-12*time.Minute), "cert-manager-certificates-issuing")
	zero := deployment("cert-manager", "cert-manager", "cert-manager-controller")
	zero.Spec.Replicas = new(int32)
	one := deployment("cert-manager", "cert-manager", "cert-manager-controller")
	crashing := runningPod("cert-manager", "cert-manager-648cd49b44-z6g8s", map[string]string{"app": "cert-manager"}, false)
	crashing.Status.Phase = corev1.PodPending
	crashing.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "cert-manager-controller",
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 5m0s restarting failed container"}}}}
	for _, tc := range []struct {
		name string
		cs   *fake.Clientset
		want string
	}{
		{"scaled to zero", fake.NewClientset(zero), "deploy/cert-manager has no running pods: nothing is reconciling your change (it is scaled to zero (spec.replicas 0), no pods)"},
		{"crash-looping", fake.NewClientset(one, crashing), "deploy/cert-manager has no running pods: nothing is reconciling your change (0 of 1 replicas ready; cert-manager-648cd49b44-z6g8s container cert-manager-controller CrashLoopBackOff: back-off 5m0s restarting failed container)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := &fakeKeys{}
			a := &Asker{Finder: &Finder{Core: tc.cs}, Keys: keys, Now: func() time.Time { return now }}
			ans := a.Ask(context.Background(), u, "certificates")
			if !strings.Contains(ans.Summary, tc.want) || len(keys.asked) > 0 {
				t.Errorf("summary\n %s\nwant it to contain\n %s\n(keys asked %v, want none)", ans.Summary, tc.want, keys.asked)
			}
			if all := ans.Summary + strings.Join(ans.Next, " ") + ans.BackoffError; strings.Contains(all, "--from-logs") {
				t.Errorf("answer speaks of --from-logs: %s", all)
			}
		})
	}
}

// TestClusterLogsWords: a log that cannot be read is said in why's words,
// not log mode's flag.
func TestClusterLogsWords(t *testing.T) {
	c := &Cluster{Core: fake.NewClientset(deployment("ops", "ctrl", "manager"))}
	_, err := c.Logs(context.Background(), &Controller{Target: "deploy/ctrl", Namespace: "ops"}, "ns/x")
	if err == nil || strings.Contains(err.Error(), "--from-logs") || !strings.Contains(err.Error(), "the log of deploy/ctrl in namespace ops could not be read") {
		t.Errorf("err %v; want the log of deploy/ctrl could not be read, no flag", err)
	}
}

// TestFindPodStatusManager: a Pod's status manager is its node's kubelet
// (kwok in the e2e tier): said so, with no search for pods of that name
// and no --controller-pod asked for.
func TestFindPodStatusManager(t *testing.T) {
	for _, manager := range []string{"kubelet", "kwok"} {
		f := &Finder{Core: fake.NewClientset()}
		c, refused := f.Find(context.Background(), schema.GroupKind{Kind: "Pod"}, []Change{{Manager: manager}}, nil)
		if c.Rule != RuleNodeAgent || c.Found() || strings.Contains(c.How, "--controller-pod") || !strings.Contains(c.How, "kubelet of its node") || len(refused) > 0 {
			t.Errorf("%s: controller %+v, refused %v; want %s, not found, no --controller-pod", manager, c, refused, RuleNodeAgent)
		}
	}
}

// TestFindControllerBackUp: a controller found down, asked about again past
// recheckRunning (a watch, `why TYPE`, the MCP server), is read again: once
// its pod runs, nothing says it is down.
func TestFindControllerBackUp(t *testing.T) {
	managers := []Change{{Manager: "cert-manager-certificates-issuing"}}
	gk := schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}
	pod := runningPod("cert-manager", "cert-manager-648cd49b44-z6g8s", map[string]string{"app": "cert-manager"}, false)
	pod.Status.Phase = corev1.PodPending
	cs := fake.NewClientset(deployment("cert-manager", "cert-manager", "cert-manager-controller"), pod)
	f := &Finder{Core: cs}
	ctx := context.Background()
	if c, _ := f.Find(ctx, gk, managers, nil); c.NotRunning == "" {
		t.Fatalf("controller %+v; want it not running (its pod is Pending)", c)
	}
	pod.Status.Phase = corev1.PodRunning
	if _, err := cs.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	for id, fd := range f.found { // as if recheckRunning had passed
		fd.checked = fd.checked.Add(-recheckRunning)
		f.found[id] = fd
	}
	if c, _ := f.Find(ctx, gk, managers, nil); c.NotRunning != "" {
		t.Errorf("NotRunning %q after its pod runs again; want none", c.NotRunning)
	}
}
