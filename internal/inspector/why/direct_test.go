package why

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// failingConfigMapSession is the operator's endpoint: log mode's store,
// read from three of controller-runtime's JSON "Reconciler error" lines of
// controller configmap failing on widgets/down-1, serving the v1 API in
// process.
func failingConfigMapSession(t *testing.T) *inspector.Session {
	t.Helper()
	store := logs.NewStore(logs.Options{})
	const line = `{"level":"error","ts":"2026-05-01T11:59:0%dZ","msg":"Reconciler error","controller":"configmap","controllerGroup":"","controllerKind":"ConfigMap","ConfigMap":{"name":"down-1","namespace":"widgets"},"namespace":"widgets","name":"down-1","reconcileID":"r%d","error":"eu region unavailable"}` + "\n"
	var log strings.Builder
	for i := range 3 {
		fmt.Fprintf(&log, line, i, i)
	}
	if _, _, err := store.Read(context.Background(), strings.NewReader(log.String())); err != nil {
		t.Fatal(err)
	}
	s := inspector.InProcessSession(nil, inspector.NamedHandler{Name: "local", Handler: store.Handler()})
	return s
}

// TestDirectConfigMap is issue 48's operator run with `go run`: reached at
// --addr (here log mode's store serves the same v1 API in process), it
// reconciles ConfigMaps and fails on widgets/down-1; `why configmap/down-1`
// answers from it, not "a ConfigMap has no status". The log lines are
// built in controller-runtime's JSON form.
func TestDirectConfigMap(t *testing.T) {
	s := failingConfigMapSession(t)
	a := &Asker{Direct: &Direct{Session: s, Addrs: []string{"http://127.0.0.1:8082"}}, Now: func() time.Time { return now }}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "down-1", "namespace": "widgets"}, "data": map[string]any{"a": "b"}}}
	ans := a.Ask(context.Background(), u, "configmaps")
	if ans.Controller == nil || ans.Controller.Rule != RuleAddr || ans.Backoff == nil || ans.Backoff.Key == nil {
		t.Fatalf("controller %+v, backoff %+v (%s); want the --addr endpoint's key", ans.Controller, ans.Backoff, ans.BackoffError)
	}
	// The stand-in has no queue to requeue the key on (log mode's store):
	// a retry now touches the object (why -f --addr's CLI test has an
	// instrumented queue, and forget --requeue through --addr).
	if !strings.HasPrefix(ans.Summary, `InProgress: controller "configmap" is failing on it`) || !strings.Contains(strings.Join(ans.Next, "\n"), "kick --kind ConfigMap widgets/down-1") {
		t.Errorf("summary %q, next %q; want the failures, and kick (no queue to requeue on)", ans.Summary, ans.Next)
	}
	if v := ans.Verdict; v.Status != InProgress || v.KStatus != Current || v.Override != RuleControllerFailing {
		t.Errorf("verdict %s (kstatus %s, override %q); want InProgress, overriding kstatus's Current", v.Status, v.KStatus, v.Override)
	}
}

// TestDirectConfigMapList is the same operator asked for the list, as
// `why configmaps -n widgets --addr …`: the failing ConfigMap is listed
// InProgress, as `why configmap/down-1` answers it, and one the controller
// does not fail on is left out (the list said "all 2 configmaps are
// Current" of a key 15 failures deep).
func TestDirectConfigMapList(t *testing.T) {
	s := failingConfigMapSession(t)
	cm := func(name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "widgets"}, "data": map[string]any{"a": "b"}}}
	}
	items := []Item{{Object: cm("down-1"), Resource: "configmaps"}, {Object: cm("settings"), Resource: "configmaps"}}
	a := &Asker{Direct: &Direct{Session: s, Addrs: []string{"http://127.0.0.1:8082"}}, Now: func() time.Time { return now }}
	l := a.List(context.Background(), items)
	if len(l.Answers) != 1 || l.Answers[0].Object.Name != "down-1" || l.Answers[0].Verdict.Status != InProgress {
		var got []string
		for _, ans := range l.Answers {
			got = append(got, ans.Object.Name+" "+string(ans.Verdict.Status))
		}
		t.Fatalf("answers %q; want down-1 InProgress alone", got)
	}
	// With no controller named, a ConfigMap is not searched for one: Current.
	if l := (&Asker{Now: func() time.Time { return now }}).List(context.Background(), items); len(l.Answers) != 0 {
		t.Errorf("no controller named: %d answers; want none", len(l.Answers))
	}
	// Over the bound, the keys are not read, and the list says so.
	for i := len(items); i <= maxListEvents; i++ {
		items = append(items, Item{Object: cm(fmt.Sprintf("other-%d", i)), Resource: "configmaps"})
	}
	l = a.List(context.Background(), items)
	if len(l.Answers) != 0 || !strings.Contains(l.EventsSkipped, "the controller's keys of the 101 objects with no status were not read") {
		t.Errorf("%d objects: %d answers, note %q; want none, and the keys not read said", len(items), len(l.Answers), l.EventsSkipped)
	}
}

// TestLogConfigMapListNamesItsController: the list of `why configmaps
// --from-logs FILE`, whose ConfigMap no status manager names: CONTROLLER is
// the log's controller failing on it, as MESSAGE says, not "(no status
// manager)" beside "controller \"configmap\" is failing on it".
func TestLogConfigMapListNamesItsController(t *testing.T) {
	store := logs.NewStore(logs.Options{})
	const line = `{"level":"error","ts":"2026-05-01T11:59:0%dZ","msg":"Reconciler error","controller":"configmap","controllerGroup":"","controllerKind":"ConfigMap","ConfigMap":{"name":"down-1","namespace":"widgets"},"namespace":"widgets","name":"down-1","reconcileID":"r%d","error":"eu region unavailable"}` + "\n"
	var log strings.Builder
	for i := range 3 {
		fmt.Fprintf(&log, line, i, i)
	}
	if _, _, err := store.Read(context.Background(), strings.NewReader(log.String())); err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "down-1", "namespace": "widgets"}, "data": map[string]any{"a": "b"}}}
	// With a cluster to search (no status manager found) and without.
	for _, finder := range []*Finder{{Core: fake.NewClientset()}, nil} {
		a := &Asker{Finder: finder, FromLog: &LogFile{Store: store, Name: "op.log"}, Now: func() time.Time { return now }}
		l := a.List(context.Background(), []Item{{Object: u, Resource: "configmaps"}})
		if len(l.Answers) != 1 {
			t.Fatalf("%d answers; want down-1", len(l.Answers))
		}
		if got, want := l.Answers[0].ControllerName(), "configmap"; got != want {
			t.Errorf("finder %v: ControllerName = %q, want %q (summary %q)", finder != nil, got, want, l.Answers[0].Summary)
		}
	}
}
