package cluster_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// testPod is a pod with labels, a phase, a Ready condition and container ports.
func testPod(ns, name string, phase corev1.PodPhase, ready bool, labels map[string]string, ports ...corev1.ContainerPort) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "manager", Ports: ports}}},
		Status:     corev1.PodStatus{Phase: phase},
	}
	if ready {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	return p
}

func port(name string, n int32) corev1.ContainerPort {
	return corev1.ContainerPort{Name: name, ContainerPort: n}
}

// owned makes owner (kind/name) the pod's controlling owner.
func owned(p *corev1.Pod, kind, name string) *corev1.Pod {
	p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: name, Controller: new(true)}}
	return p
}

func selector(labels map[string]string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: labels}
}

// discoveryCluster holds a controller deployment (ctrl), a statefulset
// (shard), a web pod, pods that are not running, and pods in other namespaces.
func discoveryCluster() *fake.Clientset {
	ctrl := map[string]string{"app": "ctrl", "pod-template-hash": "5d8f"}
	deleting := testPod("ops", "ctrl-d", corev1.PodRunning, true, ctrl, port("backoff", 9090))
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}
	deleting.Finalizers = []string{"example.com/keep"}
	objs := []runtime.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "ctrl"},
			Spec: appsv1.DeploymentSpec{Selector: selector(map[string]string{"app": "ctrl"})}},
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "ctrl-5d8f"},
			Spec: appsv1.ReplicaSetSpec{Selector: selector(ctrl)}},
		&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "shard"},
			Spec: appsv1.StatefulSetSpec{Selector: selector(map[string]string{"app": "shard"})}},
		owned(testPod("ops", "ctrl-a", corev1.PodRunning, true, ctrl, port("backoff", 9090), port("metrics", 8443)), "ReplicaSet", "ctrl-5d8f"),
		owned(testPod("ops", "ctrl-b", corev1.PodRunning, false, map[string]string{"app": "ctrl", "pod-template-hash": "77aa"}, port("metrics", 8443)), "ReplicaSet", "ctrl-77aa"),
		testPod("ops", "ctrl-c", corev1.PodPending, false, ctrl, port("backoff", 9090)),
		deleting,
		owned(testPod("ops", "shard-1", corev1.PodRunning, true, map[string]string{"app": "shard"}, port("backoff", 8082)), "StatefulSet", "shard"),
		owned(testPod("ops", "shard-0", corev1.PodRunning, true, map[string]string{"app": "shard"}, port("backoff", 8082)), "StatefulSet", "shard"),
		testPod("ops", "web", corev1.PodRunning, true, map[string]string{"app": "web"}, port("http", 80)),
		testPod("other", "lone", corev1.PodRunning, true, map[string]string{"app": "ctrl"}, port("backoff", 7000)),
		testPod("stuck", "starting", corev1.PodPending, false, nil, port("backoff", 8082)),
	}
	return fake.NewClientset(objs...)
}

func TestResolve(t *testing.T) {
	// Workload: a deployment's pods through their ReplicaSets (of any
	// pod-template-hash), a statefulset's, and a pod of its own.
	ctrlA := cluster.Pod{Namespace: "ops", Name: "ctrl-a", Port: 9090, Ready: true, Phase: corev1.PodRunning, Workload: "ops/deploy/ctrl"}
	ctrlB := cluster.Pod{Namespace: "ops", Name: "ctrl-b", Port: cluster.DefaultPort, Phase: corev1.PodRunning, Workload: "ops/deploy/ctrl",
		PortGuessed: true} // no port named backoff: the default is a guess
	shard0 := cluster.Pod{Namespace: "ops", Name: "shard-0", Port: 8082, Ready: true, Phase: corev1.PodRunning, Workload: "ops/sts/shard"}
	shard1 := cluster.Pod{Namespace: "ops", Name: "shard-1", Port: 8082, Ready: true, Phase: corev1.PodRunning, Workload: "ops/sts/shard"}
	lone := cluster.Pod{Namespace: "other", Name: "lone", Port: 7000, Ready: true, Phase: corev1.PodRunning, Workload: "other/pod/lone"}
	withPort := func(n int, pods ...cluster.Pod) []cluster.Pod {
		for i := range pods {
			pods[i].Port, pods[i].PortGuessed = n, false
		}
		return pods
	}
	tests := []struct {
		name, arg, selector, ns string
		all                     bool
		port                    cluster.PortSpec
		want                    []cluster.Pod
		wantErr                 string
	}{
		{name: "pod/NAME", arg: "pod/ctrl-a", ns: "ops", want: []cluster.Pod{ctrlA}},
		{name: "bare name is a pod, default port 8082", arg: "ctrl-b", ns: "ops", want: []cluster.Pod{ctrlB}},
		{name: "deploy/NAME: its selector's running pods", arg: "deploy/ctrl", ns: "ops", want: []cluster.Pod{ctrlA, ctrlB}},
		{name: "sts/NAME", arg: "sts/shard", ns: "ops", want: []cluster.Pod{shard0, shard1}},
		{name: "rs/NAME", arg: "rs/ctrl-5d8f", ns: "ops", want: []cluster.Pod{ctrlA}},
		{name: "-l selector", selector: "app=shard", ns: "ops", want: []cluster.Pod{shard0, shard1}},
		{name: "no target: pods with a port named backoff", ns: "ops", want: []cluster.Pod{ctrlA, shard0, shard1}},
		{name: "no target, all namespaces", ns: "ops", all: true, want: []cluster.Pod{ctrlA, shard0, shard1, lone}},
		{name: "-l selector, all namespaces: its instrumented pods everywhere", selector: "app=ctrl", ns: "ops", all: true, want: []cluster.Pod{ctrlA, lone}},
		{name: "-l selector, all namespaces, --port: every pod it matches", selector: "app=ctrl", ns: "ops", all: true, port: "7000",
			want: withPort(7000, ctrlA, ctrlB, lone)},
		{name: "--port by number", arg: "deploy/ctrl", ns: "ops", port: "9999", want: withPort(9999, ctrlA, ctrlB)},
		{name: "--port by name", arg: "deploy/ctrl", ns: "ops", port: "metrics", want: withPort(8443, ctrlA, ctrlB)},
		{name: "--port name missing on a pod", arg: "sts/shard", ns: "ops", port: "metrics",
			wantErr: `port "metrics": pod ops/shard-0 has no container port of that name`},
		{name: "deployment not found", arg: "deploy/missing", ns: "ops", wantErr: `deployment/missing not found in namespace "ops"`},
		{name: "statefulset not found", arg: "sts/ctrl", ns: "ops", wantErr: `statefulset/ctrl not found in namespace "ops"`},
		{name: "pod not found", arg: "pod/ctrl-a", ns: "other", wantErr: `pod/ctrl-a not found in namespace "other"`},
		{name: "pod not running", arg: "pod/ctrl-c", ns: "ops", wantErr: `pod/ctrl-c: 1 pod(s) in namespace "ops", none running`},
		{name: "selector matches nothing", selector: "app=none", ns: "ops", wantErr: `-l app=none: no pods in namespace "ops"`},
		{name: "no instrumented pods", ns: "empty",
			wantErr: `no instrumented pods in namespace "empty": looked for a container port named "backoff"`},
		{name: "instrumented pods not running", ns: "stuck", wantErr: `1 instrumented pod(s) in namespace "stuck", none running`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, err := cluster.ParseTarget(tt.arg, tt.selector)
			if err != nil {
				t.Fatalf("ParseTarget(%q, %q): %v", tt.arg, tt.selector, err)
			}
			got, err := cluster.Resolve(context.Background(), discoveryCluster(), target, tt.ns, tt.all, tt.port)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Resolve error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Resolve =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestPodString(t *testing.T) {
	if got, want := (cluster.Pod{Namespace: "ops", Name: "ctrl-a"}).String(), "ops/ctrl-a"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestNoPodsAllNamespaces: with every namespace searched and no
// instrumented pod anywhere, the error is a NoPodsError that says so (a
// command adds its advice, which then leaves out -A: cli's TestNoPodsHint).
func TestNoPodsAllNamespaces(t *testing.T) {
	_, err := cluster.Resolve(context.Background(), fake.NewClientset(), cluster.Target{}, "default", true, "")
	np, ok := errors.AsType[*cluster.NoPodsError](err)
	if !ok {
		t.Fatalf("Resolve in an empty cluster: %v, want a *NoPodsError", err)
	}
	if np.Namespace != "" {
		t.Errorf("Namespace = %q, want \"\" (every namespace)", np.Namespace)
	}
	if want := `no instrumented pods in any namespace: looked for a container port named "backoff"`; err.Error() != want {
		t.Errorf("error %q\nwant %q", err, want)
	}
}
