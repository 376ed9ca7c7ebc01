//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// kcmPod is kube-controller-manager's static pod as kubeadm names it.
const kcmPod = "kube-controller-manager-" + nodeName

// kcmControllers are the controllers the scenarios need: Deployments'
// ReplicaSets, their pods under a quota, a namespace's deletion, a Job's
// pods refused by PodSecurity, an HPA and a claim whose targets are missing.
var kcmControllers = "deployment-controller,replicaset-controller,namespace-controller,resourcequota-controller,serviceaccount-controller,job-controller," +
	"horizontal-pod-autoscaler-controller,persistentvolume-binder-controller"

// startControllerManager runs the real kube-controller-manager (built by
// hack/k8s-bin.sh from the API server's module) against the API server,
// its log (klog, stderr) written to log as a container runtime writes it,
// at --v=4: the whole-log case reads it so, and as -v=2 would have written
// it (testKCMWholeLog).
func startControllerManager(t *testing.T, assets, kubeconfig string, log *criLog) {
	t.Helper()
	cmd := exec.Command(filepath.Join(assets, "kube-controller-manager"),
		"--kubeconfig="+kubeconfig,
		"--controllers="+kcmControllers,
		"--leader-elect=false",
		"--secure-port=0",
		"--use-service-account-credentials=false",
		"--v=4",
	)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start kube-controller-manager: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stopProcess(t, "kube-controller-manager", cmd, exited)
		keepArtifact(t, log.path)
		if t.Failed() {
			dumpFile(t, "kube-controller-manager", log.path)
		}
	})
}

// testControllerManager: the built-ins' chains, on the real controller.
func testControllerManager(ctx context.Context, t *testing.T, kc *kubectl, assets, admin string, cs kubernetes.Interface, c client.Client, log *criLog) {
	startControllerManager(t, assets, admin, log)
	// Early: its ReplicaSet backs off while the quota case runs.
	createMissingServiceAccount(ctx, t, c)
	createFixCases(ctx, t, c, cs)
	answer := func(t *testing.T, args ...string) *why.Answer {
		t.Helper()
		var a why.Answer
		if err := kc.jsonOf(t, &a, admin, append(append([]string{"backoff", "why"}, args...), "-o", "json")...); err != nil {
			t.Fatal(err)
		}
		return &a
	}
	blocker := func(a *why.Answer) *why.Node {
		if b := a.Chain.Blockers(); len(b) > 0 {
			return b[0]
		}
		return nil
	}

	const q = "q"
	mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: q}})
	// The tenant of a managed control plane: no kube-controller-manager pod
	// in sight, its log a file.
	hidden, hiddenText := hiddenAsker(kc, tenantKubeconfig(ctx, t, cs, admin, q, saNamespace), log.path)
	// The same answers as the tenant who sees no control-plane pod, from
	// kube-controller-manager's log as a file.
	both := []asker{{"admin", answer}, {"tenant with --from-logs", hidden}}

	t.Run("quota", func(t *testing.T) {
		mustCreate(ctx, t, c, &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: q, Namespace: q},
			Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("0")}}})
		webUnderQuota(ctx, t, cs, c, q, q)
		eventually(t, time.Minute, "the replicaset controller fails on the quota", func(ctx context.Context) error {
			l, err := cs.AppsV1().ReplicaSets(q).List(ctx, metav1.ListOptions{})
			if err != nil || len(l.Items) == 0 {
				return fmt.Errorf("no ReplicaSet yet (%v)", err)
			}
			for _, cond := range l.Items[0].Status.Conditions {
				if cond.Type == appsv1.ReplicaSetReplicaFailure && strings.Contains(cond.Message, "exceeded quota") {
					return nil
				}
			}
			return fmt.Errorf("ReplicaSet %s conditions %+v", l.Items[0].Name, l.Items[0].Status.Conditions)
		})

		// A managed control plane: no kube-controller-manager pod in sight.
		// The blocker is the quota the ReplicaSet's failure names, with its
		// numbers; the ReplicaSet refused is on the path to it.
		a := answer(t, "deployment/web", "-n", q)
		b := blocker(a)
		if b == nil || b.Object.Kind != "ResourceQuota" || b.Object.Name != q || b.Status != why.Refusing || b.Line != "exceeded: pods: used 0 of hard 0, 1 requested" {
			t.Fatalf("blocker %+v; want resourcequota/%s Refusing, used 0 of hard 0 (summary %q)", b, q, a.Summary)
		}
		path := a.Chain.Path(b)
		if len(path) != 3 || path[1].Object.Kind != "ReplicaSet" || !strings.HasPrefix(path[1].Object.Name, "web-") || !strings.Contains(path[1].Line, "exceeded quota") {
			t.Fatalf("path %+v; want deployment → the ReplicaSet web-… (exceeded quota) → the quota", path)
		}
		if next := strings.Join(a.Next, "\n"); !strings.Contains(next, "Change resourcequota/"+q+" -n "+q+", not the object") || strings.Contains(next, "Check Pods") {
			t.Errorf("next %q; want the quota to change, no Check Pods (there are none)", next)
		}
		b = path[1] // the ReplicaSet, whose controller's backoff is the wait
		if ctl := a.Controller; ctl == nil || ctl.Rule != why.RuleControlPlane || strings.Contains(a.Summary+strings.Join(a.Next, " "), "--controller-pod") {
			t.Errorf("controller %+v, next %v; want the control plane said managed, no --controller-pod", ctl, a.Next)
		}
		out := kc.ok(t, admin, "backoff", "why", "deployment/web", "-n", q)
		t.Logf("why deployment/web (no controller pod):\n%s", out)
		for _, want := range []string{"replicaset.apps/" + b.Object.Name, "resourcequota/" + q, "exceeded quota", "<- blocker", "control plane is managed"} {
			if !strings.Contains(out, want) {
				t.Errorf("why lacks %q", want)
			}
		}

		// kubeadm's control plane: the static pod, its log the real controller's.
		createStaticPod(ctx, t, cs)
		a = answer(t, "deployment/web", "-n", q)
		if ctl := a.Controller; ctl == nil || ctl.Rule != why.RulePodContainer || ctl.Target != "pod/"+kcmPod || ctl.Namespace != "kube-system" {
			t.Errorf("controller %+v; want pod/%s in kube-system by %s", ctl, kcmPod, why.RulePodContainer)
		}
		if len(a.Blockers) != 1 || a.Blockers[0].Controller == nil || a.Blockers[0].Controller.Target != "pod/"+kcmPod {
			t.Fatalf("blockers' answers %+v; want the ReplicaSet's, by kube-controller-manager's pod", a.Blockers)
		}
		rs := a.Blockers[0]
		assertChainView(t, a, "resourcequota/"+q, "exceeded: pods: used 0 of hard 0")
		if !strings.Contains(eventsText(rs), "exceeded quota") {
			t.Errorf("the ReplicaSet's events lack the quota message: %+v", rs.Events)
		}
		// The replicaset controller's retries, read off its real log through
		// log mode's kube-controller-manager dialect, counted as the log
		// shows them: utilruntime.HandleError's "sync \"KEY\" failed with".
		rsKey := q + "/" + b.Object.Name
		assertLogRetries(t, log.path, "replicaset-controller", rsKey, "exceeded quota",
			func() *why.Backoff {
				if a := answer(t, "deployment/web", "-n", q); len(a.Blockers) > 0 {
					return a.Blockers[0].Backoff
				}
				return nil
			},
			`replica_set.go:`, `sync \"`+rsKey+`\" failed with`)
		// What the user is told to do: fix what the error names (the
		// quota), in why's steps; and describe of the key off the log as a
		// file, advice for a reader of kube-controller-manager's log.
		assertFixWhatItNames(t, "why deployment/web (static pod)", answer(t, "deployment/web", "-n", q), "exceeded quota: "+q)
		describeKCMKey(t, kc, admin, log.path, "replicaset-controller", rsKey)
		// The same answer hidden: the tenant sees no pod of the control
		// plane and gives its log as a file.
		h := hidden(t, "deployment/web", "-n", q)
		if hb := blocker(h); hb == nil || hb.Object.Kind != "ResourceQuota" || hb.Object.Name != q || hb.Status != why.Refusing || hb.Line != "exceeded: pods: used 0 of hard 0, 1 requested" {
			t.Fatalf("hidden: blocker %+v; want resourcequota/%s Refusing, used 0 of hard 0 (summary %q)", hb, q, h.Summary)
		}
		assertLogRetries(t, log.path, "replicaset-controller", rsKey, "exceeded quota",
			func() *why.Backoff {
				if a := hidden(t, "deployment/web", "-n", q); len(a.Blockers) > 0 {
					return a.Blockers[0].Backoff
				}
				return nil
			},
			`replica_set.go:`, `sync \"`+rsKey+`\" failed with`)
		assertFixWhatItNames(t, "why deployment/web --from-logs (hidden)", hidden(t, "deployment/web", "-n", q), "exceeded quota: "+q)
		out = kc.ok(t, admin, "backoff", "why", "deployment/web", "-n", q)
		t.Logf("why deployment/web (static pod):\n%s", out)
		for _, want := range []string{"pod/" + kcmPod + " -n kube-system", "Key:            " + rsKey + " (controller replicaset-controller)", "exceeded quota", whyFix} {
			if !strings.Contains(out, want) {
				t.Errorf("why lacks %q", want)
			}
		}
		// The Deployment's own key: not failing, said so with what is; or,
		// at --v=2 and above, the one conflict its controller logged
		// ("Error syncing deployment", V(2)) when it created the
		// ReplicaSet: resolved by its retry, so the backoff shown is the
		// ReplicaSet's, its Note naming the conflict (conflict.go).
		notFailing := "Key:            " + q + "/web: the deployment-controller is not failing on it; what fails is replicaset.apps/" + b.Object.Name + ", where the replicaset-controller is failing on " + rsKey
		conflict := "deployment.apps/web's own key " + q + "/web (controller deployment-controller) last failed on a write conflict"
		if !strings.Contains(out, notFailing) && !(strings.Contains(out, conflict) && !strings.Contains(out, "Key:            "+q+"/web (controller deployment-controller)")) {
			t.Errorf("why lacks %q, or %q with the ReplicaSet's key in its place", notFailing, conflict)
		}
		testQuotaRaised(ctx, t, kc, admin, cs, q, b.Object.Name, answer, hidden)
	})
	t.Run("missing-serviceaccount", func(t *testing.T) {
		testMissingServiceAccount(ctx, t, kc, admin, cs, c, answer, hidden, hiddenText)
	})
	t.Run("quota-pending-pod", func(t *testing.T) { testQuotaPendingPod(ctx, t, kc, admin, cs, both) })

	t.Run("webhook", func(t *testing.T) { testWebhookBlocker(ctx, t, kc, admin, cs, c, answer) })

	t.Run("namespace-stuck", func(t *testing.T) {
		apisvc := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
			"metadata": map[string]any{"name": "v1beta1.broken.example.com"},
			"spec": map[string]any{"group": "broken.example.com", "version": "v1beta1", "groupPriorityMinimum": int64(100), "versionPriority": int64(100),
				"insecureSkipTLSVerify": true, "service": map[string]any{"namespace": "broken", "name": "nothing", "port": int64(443)}},
		}}
		mustCreate(ctx, t, c, apisvc)
		t.Cleanup(func() { _ = c.Delete(context.Background(), apisvc) }) // the namespace may then go
		mustCreate(ctx, t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "stuck"}})
		if err := cs.CoreV1().Namespaces().Delete(ctx, "stuck", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, time.Minute, "the namespace controller reports the discovery failure", func(ctx context.Context) error {
			n, err := cs.CoreV1().Namespaces().Get(ctx, "stuck", metav1.GetOptions{})
			if err != nil {
				return err
			}
			for _, cond := range n.Status.Conditions {
				if cond.Type == corev1.NamespaceDeletionDiscoveryFailure && cond.Status == corev1.ConditionTrue {
					return nil
				}
			}
			return fmt.Errorf("conditions %+v", n.Status.Conditions)
		})
		a := answer(t, "namespace/stuck")
		b := blocker(a)
		if b == nil || b.Object.Kind != "APIService" || b.Object.Name != "v1beta1.broken.example.com" {
			t.Fatalf("blocker %+v; want the APIService v1beta1.broken.example.com (summary %q)", b, a.Summary)
		}
		if hb := blocker(hidden(t, "namespace/stuck")); hb == nil || hb.Object.Kind != "APIService" || hb.Object.Name != "v1beta1.broken.example.com" {
			t.Errorf("as the tenant with --from-logs: blocker %+v; want the same APIService", hb)
		}
		out := kc.ok(t, admin, "backoff", "why", "namespace/stuck")
		t.Logf("why namespace/stuck:\n%s", out)
		if want := "apiservice.apiregistration.k8s.io/v1beta1.broken.example.com"; !strings.Contains(out, want) {
			t.Errorf("why lacks %q", want)
		}
		// The namespace controller's retries for "stuck", from its real log
		// (the static pod is there since the quota scenario).
		if ctl := a.Controller; ctl == nil || ctl.Target != "pod/"+kcmPod {
			t.Fatalf("controller %+v; want pod/%s", ctl, kcmPod)
		}
		assertLogRetries(t, log.path, "namespace-controller", "stuck", "stale GroupVersion discovery",
			func() *why.Backoff { return answer(t, "namespace/stuck").Backoff },
			`"Deletion of namespace failed"`, `namespace="stuck"`)
	})

	t.Run("podsecurity-job", func(t *testing.T) { testPodSecurityJob(ctx, t, cs, c, kc, admin, both) })
	t.Run("missing-targets", func(t *testing.T) { testMissingTargets(ctx, t, cs, c, kc, admin, both) })

	// Last: its pods are on the node, so kwok holds them not ready.
	t.Run("progress-deadline", func(t *testing.T) { testProgressDeadline(ctx, t, cs, c, kc, admin, answer) })
	// After every case: the whole log, read once, at -v=4 and -v=2.
	t.Run("whole-log", func(t *testing.T) { testKCMWholeLog(ctx, t, kc, admin, cs, log) })
}

// assertLogRetries asks for the key's backoff (read) until the real log did
// not grow during the read, then checks it against the log: the controller
// the dialect names, the key, its last error, and as many failures as the
// log has lines with every one of marks. Counted here, by reading the
// lines, not by the dialect; a line the dialect missed or invented fails.
func assertLogRetries(t *testing.T, path, controller, key, errPart string, read func() *why.Backoff, marks ...string) {
	t.Helper()
	var b *why.Backoff
	var n int
	eventually(t, 2*time.Minute, controller+"'s failures on "+key+" read while the log stands still", func(context.Context) error {
		before := linesWith(t, path, marks...)
		b = read()
		n = linesWith(t, path, marks...)
		switch {
		case n == 0:
			return fmt.Errorf("no line of the log has %q yet", marks)
		case before != n:
			return fmt.Errorf("the log grew from %d to %d such lines during the read", before, n)
		}
		return nil
	})
	switch {
	case b == nil || b.Key == nil:
		t.Fatalf("backoff %+v; want %s's key %s read off the log", b, controller, key)
	case b.Source != why.SourceLogs || b.Controller != controller || b.Key.Key != key:
		t.Errorf("backoff from %s, controller %q, key %q; want the log, %q, %q", b.Source, b.Controller, b.Key.Key, controller, key)
	case b.Key.TotalFailures != n || b.Key.Failures != n:
		t.Errorf("%s %s: %d failures (%d in all); the log has %d lines of them", controller, key, b.Key.Failures, b.Key.TotalFailures, n)
	case b.Key.LastError == nil || !strings.Contains(b.Key.LastError.Message, errPart):
		t.Errorf("last error %+v; want one with %q", b.Key.LastError, errPart)
	}
	t.Logf("%s %s: %d failures, as the log's %d lines of %q", controller, key, b.Key.Failures, n, marks)
}

// createStaticPod creates kube-controller-manager's mirror pod as the
// kubelet does for kubeadm's manifest: in kube-system, owned by the Node,
// in no Deployment; kwok runs it and serves the real controller's log.
func createStaticPod(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	t.Helper()
	node, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: kcmPod, Namespace: "kube-system",
			Labels:          map[string]string{"component": "kube-controller-manager", "tier": "control-plane"},
			Annotations:     map[string]string{"kubernetes.io/config.mirror": "e2e", "kubernetes.io/config.source": "file"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: ptr.To(true)}}},
		Spec: corev1.PodSpec{NodeName: nodeName, PriorityClassName: "", Containers: []corev1.Container{{Name: "kube-controller-manager", Image: "registry.k8s.io/kube-controller-manager:v1.37.2"}}},
	}
	if _, err := cs.CoreV1().Pods("kube-system").Create(ctx, p, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Minute, "kwok runs the static pod", func(ctx context.Context) error {
		p, err := cs.CoreV1().Pods("kube-system").Get(ctx, kcmPod, metav1.GetOptions{})
		if err != nil || p.Status.Phase != corev1.PodRunning {
			return fmt.Errorf("pod %s: %v (%v)", kcmPod, p.Status.Phase, err)
		}
		return nil
	})
}

// linesWith counts the lines of the log at path that contain every one of
// marks.
func linesWith(t *testing.T, path string, marks ...string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if !slices.ContainsFunc(marks, func(m string) bool { return !strings.Contains(line, m) }) {
			n++
		}
	}
	return n
}

// mustCreate creates o; a Namespace with its "default" ServiceAccount,
// which the ServiceAccount admission plugin needs for every pod in it (see
// defaultServiceAccount).
func mustCreate(ctx context.Context, t *testing.T, c client.Client, o client.Object) {
	t.Helper()
	if err := c.Create(ctx, o); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create %s %s: %v", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), err)
	}
	if _, ok := o.(*corev1.Namespace); ok {
		mustCreate(ctx, t, c, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: o.GetName()}})
	}
}

func eventsText(a *why.Answer) string {
	var b strings.Builder
	for _, e := range a.Events {
		b.WriteString(e.Message + "\n")
	}
	return b.String()
}

// webUnderQuota waits for the resourcequota controller to compute quota's
// status in ns (until then admission refuses every pod with another error,
// "status unknown for quota"), then creates Deployment web there: 2
// replicas of an image never pulled (no kubelet runs in this tier).
func webUnderQuota(ctx context.Context, t *testing.T, cs kubernetes.Interface, c client.Client, ns, quota string) {
	t.Helper()
	eventually(t, time.Minute, "the resourcequota controller computes "+ns+"'s quota", func(ctx context.Context) error {
		rq, err := cs.CoreV1().ResourceQuotas(ns).Get(ctx, quota, metav1.GetOptions{})
		if err != nil || rq.Status.Hard == nil {
			return fmt.Errorf("quota status %+v (%v)", rq, err)
		}
		return nil
	})
	labels := map[string]string{"app": "web"}
	mustCreate(ctx, t, c, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](2), Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "example.invalid/web:1"}}}}}})
}
