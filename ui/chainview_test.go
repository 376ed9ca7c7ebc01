package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// rolloutObjects are a Deployment past its progress deadline, its
// ReplicaSet and two pods that run and never become ready, built as
// kube-controller-manager and kwok wrote them in the e2e tier
// (TestE2E/controller-manager/progress-deadline); the Deployment's status
// is written by widget-controller, so that its answer has a key.
func rolloutObjects() []runtime.Object {
	owner := func(kind, name, uid string) []any {
		return []any{map[string]any{"apiVersion": "apps/v1", "kind": kind, "name": name, "uid": uid, "controller": true}}
	}
	dep := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"namespace": "rollout", "name": "web", "uid": "u-dep", "generation": int64(1)},
		"spec":     map[string]any{"replicas": int64(2), "progressDeadlineSeconds": int64(10)},
		"status": map[string]any{"observedGeneration": int64(1), "replicas": int64(2), "unavailableReplicas": int64(2), "updatedReplicas": int64(2),
			"conditions": []any{
				map[string]any{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability."},
				map[string]any{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded", "message": `ReplicaSet "web-5f9c9d5cf8" has timed out progressing.`},
			}},
	}}
	dep.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "widget-controller", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status",
		Time: &metav1.Time{Time: t0.Add(-time.Minute)}, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:conditions":{}}}`)}}})
	rs := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"namespace": "rollout", "name": "web-5f9c9d5cf8", "uid": "u-rs", "generation": int64(1), "ownerReferences": owner("Deployment", "web", "u-dep")},
		"spec":     map[string]any{"replicas": int64(2)},
		"status":   map[string]any{"observedGeneration": int64(1), "replicas": int64(2), "fullyLabeledReplicas": int64(2)},
	}}
	objs := []runtime.Object{dep, rs}
	for _, name := range []string{"web-5f9c9d5cf8-qk7q5", "web-5f9c9d5cf8-v5hq5"} {
		objs = append(objs, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"namespace": "rollout", "name": name, "uid": "u-" + name, "ownerReferences": owner("ReplicaSet", "web-5f9c9d5cf8", "u-rs")},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "example.invalid/web:never-ready"}}},
			"status": map[string]any{"phase": "Running", "conditions": []any{
				map[string]any{"type": "Ready", "status": "False", "reason": "ContainersNotReady", "message": "containers with unready status: [web]"},
			}},
		}})
	}
	return objs
}

// rolloutAsker answers over those objects: the chain read through a fake
// dynamic client, the controller found among newForClusterOf's pods.
func rolloutAsker(t *testing.T) (*objwhy.Asker, *unstructured.Unstructured) {
	t.Helper()
	objs := rolloutObjects()
	gvrs := map[schema.GroupVersionResource]string{
		{Version: "v1", Resource: "pods"}:                       "PodList",
		{Group: "apps", Version: "v1", Resource: "replicasets"}: "ReplicaSetList",
		{Group: "apps", Version: "v1", Resource: "deployments"}: "DeploymentList",
	}
	disc := fake.NewClientset()
	disc.Resources = []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "pods", Kind: "Pod", Namespaced: true, Verbs: metav1.Verbs{"get", "list"}}}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			{Name: "replicasets", Kind: "ReplicaSet", Namespaced: true, Verbs: metav1.Verbs{"get", "list"}},
			{Name: "deployments", Kind: "Deployment", Namespaced: true, Verbs: metav1.Verbs{"get", "list"}}}},
	}
	a := newForClusterOf(true).asker
	a.Graph = &objwhy.Graph{Dynamic: dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), gvrs, objs...), Discovery: disc.Discovery()}
	return a, objs[0].(*unstructured.Unstructured)
}

// runChain runs cmd, the chain view's ask, and feeds its message.
func runChain(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		t.Fatal("no ask was started")
	}
	read, _ := cmd().(view.ReadMsg)
	msg, ok := read.Msg.(view.ChainAskedMsg)
	if !ok {
		t.Fatalf("the command is not the chain view's ask: %T", read.Msg)
	}
	return send(t, m, msg)
}

// TestChainView: `top --for deployments` says what blocks the Deployment
// (its pods, not ready); t on its answer shows the chain as a tree, the
// blockers marked; enter on a pod opens the pod's own answer, asked again;
// esc goes back to the tree, then to the answer. Enter on the Deployment's
// answer, read from an instrumented endpoint, opens its key's detail.
func TestChainView(t *testing.T) {
	asker, dep := rolloutAsker(t)
	var asked []string
	ask := func(ctx context.Context, o objwhy.Object) (*objwhy.Answer, error) {
		asked = append(asked, o.Ref())
		return asker.AskObject(ctx, o)
	}
	attach := func(context.Context, string, string) (*inspector.Session, *describe.ObjectReader, error) {
		return &inspector.Session{}, nil, nil
	}
	list := func(ctx context.Context) (*objwhy.List, error) {
		return asker.List(ctx, []objwhy.Item{{Object: dep, Resource: "deployments"}}), nil
	}
	m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "deployments", List: list, Attach: attach, Ask: ask}})
	m = send(t, m, tea.WindowSizeMsg{Width: 160, Height: 30})
	m = runFor(t, m, m.refreshFor())
	if row := lineWith(screen(m), "web "); !strings.Contains(row, "Failed") || !strings.Contains(row, "waits for pod/web-5f9c9d5cf8-qk7q5: Running, not ready") {
		t.Errorf("the row should say what blocks it: %q", row)
	}

	m = send(t, m, press("enter"))
	if s := screen(m); !strings.Contains(s, "Waits for pod/web-5f9c9d5cf8-qk7q5: Running, not ready (ContainersNotReady: containers with unready status: [web]) (and 1 more)") ||
		!strings.Contains(s, "t chain") {
		t.Errorf("the answer should name the blocker and offer the chain:\n%s", s)
	}
	m, cmd := update(t, m, press("t"))
	if m.view() != modeChain || cmd != nil {
		t.Fatalf("t: state %v (ask %v); want the chain view on the chain the list walked", m.modes(), cmd != nil)
	}
	s := screen(m)
	t.Logf("chain view:\n%s", s)
	for _, want := range []string{"backoff › chain deployment.apps/web", "4 objects · 2 blockers",
		"deployment.apps/web  Failed", "  replicaset.apps/web-5f9c9d5cf8 [owner reference]  InProgress",
		"    pod/web-5f9c9d5cf8-qk7q5 [owner reference]  InProgress  ← blocker  Running, not ready"} {
		if !strings.Contains(s, want) {
			t.Errorf("chain view lacks %q:\n%s", want, s)
		}
	}

	// enter on the second pod: its own answer, asked for again.
	m = send(t, m, press("down"), press("down"), press("down"))
	m, cmd = update(t, m, press("enter"))
	if s := screen(m); !strings.Contains(s, "asking why for pod/web-5f9c9d5cf8-v5hq5") {
		t.Errorf("enter should say it asks:\n%s", s)
	}
	m = runChain(t, m, cmd)
	s = screen(m)
	for _, want := range []string{"› chain deployment.apps/web › pod/web-5f9c9d5cf8-v5hq5", "Object  pod/web-5f9c9d5cf8-v5hq5 -n rollout", "Pod is running but is not Ready"} {
		if !strings.Contains(s, want) {
			t.Errorf("the pod's answer lacks %q:\n%s", want, s)
		}
	}
	m = send(t, m, press("esc"))
	if s := screen(m); !strings.Contains(s, "4 objects · 2 blockers") {
		t.Errorf("esc should go back to the tree:\n%s", s)
	}

	// The Deployment's own answer has its key from the endpoint: enter
	// opens the key's detail.
	m = send(t, m, press("home"), press("up"), press("up"), press("up"))
	m, cmd = update(t, m, press("enter"))
	m = runChain(t, m, cmd)
	if s := screen(m); !strings.Contains(s, "enter key detail") {
		t.Fatalf("the Deployment's answer should offer its key's detail:\n%s", s)
	}
	m, cmd = update(t, m, press("enter"))
	m = send(t, m, attachedOf(t, cmd))
	if m.view() != modeDetail || m.det().Controller != "widgets" || m.det().Key != "rollout/web" {
		t.Fatalf("state %v, detail %s %s; want the detail of widgets' rollout/web", m.modes(), m.det().Controller, m.det().Key)
	}
	m = send(t, m, press("esc"))
	if m.view() != modeChain {
		t.Errorf("esc in the detail: state %v; want the chain view", m.modes())
	}
	m = send(t, m, press("esc"), press("esc"))
	if m.view() != modeFor {
		t.Errorf("esc twice more: state %v; want the top --for view", m.modes())
	}
	if want := []string{"pod/web-5f9c9d5cf8-v5hq5", "deployment.apps/web"}; !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v", asked, want)
	}
}
