package inspector_test

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestDescribeVerdictIsWhys: a ConfigMap an operator fails on 14 times is
// not Current in describe (and so in the TUI's key detail, which shows
// describe's Description) — the verdict `why` gives, by one rule
// (objstatus.Verdict.JudgeKey), with kstatus's word beside it (issue 41's
// newcomer, item 7: describe said "Verdict: Current", the detail view
// "Object Current: generation 0", why "InProgress (kstatus alone: Current)",
// now said in words: objstatus.ObjectWords).
func TestDescribeVerdictIsWhys(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	p := instrument.NewTyped("configmap", instrument.TypedOptions[string]{Registry: r.reg, Clock: r.clock,
		Kind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}})
	(&testController{probe: p, rl: p.RateLimiter(nil)}).fail(t, "w/c1", 14, `data.ok must be "yes"`)
	s, err := inspector.Direct(r.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The ConfigMap as the API server returns it: no status.
	objects := &describe.ObjectReader{Fetch: func(_ context.Context, gvk api.GroupVersionKind, ns, name string) (*unstructured.Unstructured, error) {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"namespace": ns, "name": name}, "data": map[string]any{"ok": "no"}}}, nil
	}}
	d, err := describe.Describe(context.Background(), s, "configmap", "w/c1", objects)
	if err != nil || d.Object == nil {
		t.Fatalf("describe: %v, object %+v", err, d)
	}
	v := d.Object.Verdict
	if v.Status != objstatus.InProgress || v.Override != objstatus.RuleControllerFailing {
		t.Errorf("verdict %s (override %q); want InProgress by %s, as why says", v.Status, v.Override, objstatus.RuleControllerFailing)
	}
	if got, want := objstatus.ObjectWords(v), "not ready yet (InProgress); kstatus, which reads only its conditions, would say Current"; got != want {
		t.Errorf("status said %q; want %q", got, want)
	}
	if want := `not Current: controller "configmap" is failing on it (14 consecutive failures, from its endpoint); a ConfigMap has no status for kstatus to read`; v.Message != want {
		t.Errorf("message\n %s\nwant\n %s", v.Message, want)
	}
}
