package why

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// TestDirectConfigMap is issue 48's operator run with `go run`: reached at
// --addr (here log mode's store serves the same v1 API in process), it
// reconciles ConfigMaps and fails on widgets/down-1; `why configmap/down-1`
// answers from it, not "a ConfigMap has no status". The log lines are
// built in controller-runtime's JSON form.
func TestDirectConfigMap(t *testing.T) {
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
	a := &Asker{Direct: &Direct{Session: s, Addrs: []string{"http://127.0.0.1:8082"}}, Now: func() time.Time { return now }}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "down-1", "namespace": "widgets"}, "data": map[string]any{"a": "b"}}}
	ans := a.Ask(context.Background(), u, "configmaps")
	if ans.Controller == nil || ans.Controller.Rule != RuleAddr || ans.Backoff == nil || ans.Backoff.Key == nil {
		t.Fatalf("controller %+v, backoff %+v (%s); want the --addr endpoint's key", ans.Controller, ans.Backoff, ans.BackoffError)
	}
	if !strings.HasPrefix(ans.Summary, `InProgress: controller "configmap" is failing on it`) || !strings.Contains(strings.Join(ans.Next, "\n"), "forget --addr http://127.0.0.1:8082 widgets/down-1") {
		t.Errorf("summary %q, next %q; want the failures, and forget through --addr", ans.Summary, ans.Next)
	}
	if v := ans.Verdict; v.Status != InProgress || v.KStatus != Current || v.Override != RuleControllerFailing {
		t.Errorf("verdict %s (kstatus %s, override %q); want InProgress, overriding kstatus's Current", v.Status, v.KStatus, v.Override)
	}
}
