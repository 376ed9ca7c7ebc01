package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// forKeys is the controller's log, as why reads it: every key in backoff,
// 4 failures, the next retry 20s after t0, estimated.
type forKeys struct{}

func (forKeys) Endpoint(_ context.Context, _ *objwhy.Controller, _ schema.GroupKind, key string) (*objwhy.Backoff, error) {
	return &objwhy.Backoff{Source: objwhy.SourceEndpoint, Controller: "widgets", ServerTime: t0, Key: &api.Key{
		Controller: "widgets", Key: key, State: api.StateBackoff, Failures: 4, NextRetryAt: t0.Add(20 * time.Second)}}, nil
}

func (forKeys) Logs(_ context.Context, _ *objwhy.Controller, key string) (*objwhy.Backoff, error) {
	return &objwhy.Backoff{Source: objwhy.SourceLogs, Controller: "widgets", ServerTime: t0, Key: &api.Key{
		Controller: "widgets", Key: key, State: api.StateBackoff, Failures: 4, NextRetryAt: t0.Add(20 * time.Second), Estimated: true,
		LastError: &api.ErrorRecord{Message: "quota exceeded", At: t0.Add(-10 * time.Second)}}}, nil
}

// widgetObject is a Widget at generation gen whose controller (widget-controller,
// through the status subresource) has observed observed; its spec was
// changed by manager changedAgo before t0.
func widgetObject(name string, gen, observed int64, manager string, changedAgo time.Duration) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"namespace": "default", "name": name, "generation": gen},
		"status":   map[string]any{"observedGeneration": observed},
	}}
	u.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, Time: &metav1.Time{Time: t0.Add(-changedAgo)},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:size":{}}}`)}},
		{Manager: "widget-controller", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", Time: &metav1.Time{Time: t0.Add(-time.Minute)},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:observedGeneration":{}}}`)}},
	})
	return u
}

// forCluster is the cluster behind `top --for widgets`: three Widgets, of
// which w-ok is Current, and the Deployment named as their status manager.
// reconcile makes w-old's change observed, as its controller would.
type forCluster struct {
	mu    sync.Mutex
	calls int
	items []objwhy.Item
	asker *objwhy.Asker
	fail  error
}

func newForCluster() *forCluster { return newForClusterOf(false) }

// newForClusterOf is forCluster with the controller's pod instrumented
// (a port named "backoff") or not.
func newForClusterOf(instrumented bool) *forCluster {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "widget-system", Name: "widget-controller-7d9f-abcde", Labels: map[string]string{"app": "widget-controller"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	if instrumented {
		pod.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: cluster.PortName, ContainerPort: 8082}}
	}
	labels := map[string]string{"app": "widget-controller"}
	cs := fake.NewClientset(
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "widget-system", Name: "widget-controller"},
			Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}}}}},
		pod,
	)
	f := &forCluster{asker: &objwhy.Asker{Finder: &objwhy.Finder{Core: cs}, Keys: forKeys{}, Now: func() time.Time { return t0 }}}
	for _, u := range []*unstructured.Unstructured{
		widgetObject("w-new", 3, 2, "helm", 5*time.Minute),
		widgetObject("w-ok", 2, 2, "helm", time.Hour),
		widgetObject("w-old", 7, 6, "kubectl-client-side-apply", 30*time.Minute),
	} {
		f.items = append(f.items, objwhy.Item{Object: u, Resource: "widgets"})
	}
	return f
}

// list is ForOptions.List: the asker's list, as `why widgets` makes it.
func (f *forCluster) list(ctx context.Context) (*objwhy.List, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.fail != nil {
		return nil, f.fail
	}
	return f.asker.List(ctx, f.items), nil
}

func (f *forCluster) reconcile(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, it := range f.items {
		if it.Object.GetName() == name {
			_ = unstructured.SetNestedField(it.Object.Object, it.Object.GetGeneration(), "status", "observedGeneration")
		}
	}
}

// run runs cmd, which must be the for view's read, and feeds its message.
func runFor(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		t.Fatal("no read of the list was started")
	}
	read, _ := cmd().(view.ReadMsg)
	msg, ok := read.Msg.(view.ForFetchedMsg)
	if !ok {
		t.Fatal("the command is not the list's read")
	}
	return send(t, m, msg)
}

// TestTopFor: `top --for widgets` lists the Widgets not Current, longest-
// waiting first, with their controller and backoff; enter opens one's
// answer and esc goes back; the next tick reads the list again and a
// Widget whose change was reconciled leaves it; a failed read keeps the
// list and says why; paused, nothing is read.
func TestTopFor(t *testing.T) {
	now := t0
	clock := func() time.Time { return now }
	cl := newForCluster()
	m := newModel(context.Background(), view.Options{Clock: clock, For: &view.ForOptions{Type: "widgets", List: cl.list}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 24})
	if s := screen(m); !strings.Contains(s, "reading the widgets") {
		t.Errorf("before the first read, the status line should say it is reading:\n%s", s)
	}
	m = runFor(t, m, m.refreshFor())

	s := screen(m)
	for _, want := range []string{"backoff › why widgets", "2 of 3 not Current · longest-waiting change first · updated just now"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	old, nw := strings.Index(s, "w-old "), strings.Index(s, "w-new ")
	if old < 0 || nw < 0 || old > nw || strings.Contains(s, "w-ok") {
		t.Errorf("want w-old (30m waiting) above w-new (5m), and the Current w-ok left out:\n%s", s)
	}
	row := lineWith(s, "w-old ")
	for _, cell := range []string{"InProgress", "30m0s", "widget-controller", "backoff 4×, retry 20s (estimated)"} {
		if !strings.Contains(row, cell) {
			t.Errorf("w-old's row lacks %q: %q", cell, row)
		}
	}

	// enter opens the answer of the row under the cursor, the first.
	m = send(t, m, press("enter"))
	s = screen(m)
	for _, want := range []string{"backoff › why widgets › w-old",
		"Status  not ready yet (InProgress): generation 7, changed 30m0s ago by kubectl-client-side-apply; the controller has",
		"pods: deploy/widget-controller -n widget-system (not instrumented: its log is read)",
		"last error: quota exceeded"} {
		if !strings.Contains(s, want) {
			t.Errorf("answer lacks %q:\n%s", want, s)
		}
	}
	m = send(t, m, press("esc"))
	if s := screen(m); !strings.Contains(s, "2 of 3 not Current") {
		t.Errorf("esc should go back to the list:\n%s", s)
	}

	// The next tick, a refresh later: read again; w-old was reconciled.
	cl.reconcile("w-old")
	if cmd := m.autoRefresh(); cmd != nil {
		t.Errorf("a refresh was started before one was due")
	}
	now = now.Add(time.Second)
	m = runFor(t, m, m.autoRefresh())
	if s := screen(m); strings.Contains(s, "w-old") || !strings.Contains(s, "1 of 3 not Current") || !strings.Contains(s, "w-new") {
		t.Errorf("after w-old was reconciled, want only w-new:\n%s", s)
	}

	// A failed read keeps what was read and says why.
	cl.fail = errors.New(`widgets.example.com is forbidden: User "dev" cannot list resource "widgets"`)
	now = now.Add(time.Second)
	m = runFor(t, m, m.autoRefresh())
	if s := screen(m); !strings.Contains(s, "w-new") || !strings.Contains(s, "✗ widgets.example.com is forbidden") {
		t.Errorf("a failed read should keep the list and show the error:\n%s", s)
	}

	// Paused: the tick reads nothing.
	m = send(t, m, press("p"))
	now = now.Add(time.Minute)
	if cmd := m.autoRefresh(); cmd != nil {
		t.Errorf("paused, a refresh was started")
	}
	if cl.calls != 3 {
		t.Errorf("List called %d times, want 3", cl.calls)
	}
}

func lineWith(screen, sub string) string {
	for _, l := range splitLines(screen) {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// TestTopForOpensTheKey: an answer read from an instrumented endpoint
// opens the key's detail, on a session attached to the controller `why`
// found; esc comes back to the `top --for` view, and the session is kept
// for the next time. An answer from a log has no detail to open.
func TestTopForOpensTheKey(t *testing.T) {
	var asked []string
	attach := func(_ context.Context, ns, target string) (*inspector.Session, *describe.ObjectReader, error) {
		asked = append(asked, ns+" "+target)
		return &inspector.Session{}, nil, nil
	}
	cl := newForClusterOf(true)
	m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: cl.list, Attach: attach}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 24})
	m = runFor(t, m, m.refreshFor())
	if row := lineWith(screen(m), "w-old "); !strings.Contains(row, "backoff 4×, retry 20s (exact)") {
		t.Fatalf("w-old's backoff should be read from the endpoint: %q", row)
	}
	m = send(t, m, press("enter"))
	if s := screen(m); !strings.Contains(s, "enter key detail") {
		t.Errorf("the answer's help should offer the key's detail:\n%s", s)
	}
	m, cmd := update(t, m, press("enter"))
	if cmd == nil {
		t.Fatal("enter on an answer from the endpoint started no attach")
	}
	msg := attachedOf(t, cmd)
	if msg.Session == nil || !slices.Equal(asked, []string{"widget-system deploy/widget-controller"}) {
		t.Fatalf("attach asked %v, msg %+v; want deploy/widget-controller in widget-system", asked, msg)
	}
	m = send(t, m, msg)
	if m.view() != modeDetail || m.det().Controller != "widgets" || m.det().Key != "default/w-old" {
		t.Fatalf("state %v, detail %s %s; want the detail of widgets' default/w-old", m.modes(), m.det().Controller, m.det().Key)
	}
	m = send(t, m, press("esc"))
	if m.view() != modeFor || m.forV().Open == "" {
		t.Errorf("esc in the detail: state %v; want the answer in the top --for view", m.modes())
	}
	m, _ = update(t, m, press("enter"))
	if m.view() != modeDetail || len(asked) != 1 {
		t.Errorf("the second time: state %v, attached %d times; want the detail on the session kept", m.modes(), len(asked))
	}

	// From a log, enter on the answer does nothing.
	l := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: newForCluster().list, Attach: attach}})
	l = send(t, l, tea.WindowSizeMsg{Width: 120, Height: 24})
	l = runFor(t, l, l.refreshFor())
	l = send(t, l, press("enter"))
	if l, cmd = update(t, l, press("enter")); cmd != nil || l.view() != modeFor {
		t.Errorf("an answer from a log opened something: state %v", l.modes())
	}
}

// TestTopForKeyAfterTheUserMovedOn: an attach that ends after the user left
// the view that asked (here for help) opens no detail over where they are;
// the session is kept, and enter there again opens the detail at once.
func TestTopForKeyAfterTheUserMovedOn(t *testing.T) {
	attached := 0
	attach := func(_ context.Context, ns, target string) (*inspector.Session, *describe.ObjectReader, error) {
		attached++
		return &inspector.Session{}, nil, nil
	}
	m := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: newForClusterOf(true).list, Attach: attach}})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 24})
	m = runFor(t, m, m.refreshFor())
	m = send(t, m, press("enter"))
	m, cmd := update(t, m, press("enter"))
	if cmd == nil {
		t.Fatal("enter on an answer from the endpoint started no attach")
	}
	msg := attachedOf(t, cmd)
	m = send(t, m, press("?"))
	if m = send(t, m, msg); m.view() != modeHelp {
		t.Fatalf("the attach ended over help: state %v; want help still shown", m.modes())
	}
	m = send(t, m, press("esc"))
	if m, _ = update(t, m, press("enter")); m.view() != modeDetail || attached != 1 {
		t.Errorf("enter again: state %v, attached %d times; want the detail on the session kept", m.modes(), attached)
	}
}

// attachedOf runs the commands of batch cmd, each on its own (the status
// line's expiry waits out its TTL), and returns the attach's message.
func attachedOf(t *testing.T, cmd tea.Cmd) view.ForAttachedMsg {
	t.Helper()
	batch, ok := cmd().(tea.BatchMsg)
	if !ok {
		t.Fatal("enter did not start the attach and its status line")
	}
	got := make(chan view.ForAttachedMsg, len(batch))
	for _, c := range batch {
		go func() {
			if fm, ok := c().(view.ForAttachedMsg); ok {
				got <- fm
			}
		}()
	}
	select {
	case fm := <-got:
		return fm
	case <-time.After(5 * time.Second):
		t.Fatal("no forAttachedMsg within 5s")
	}
	return view.ForAttachedMsg{}
}
