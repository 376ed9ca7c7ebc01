package objstatus

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestJudgeKindNoStatus: an object with no status is not reconciled yet
// when its kind always gets one (a Deployment, a CRD with a status
// subresource), and simply status-less when its kind has none (a
// ConfigMap). The objects are built as the API server stores them on
// create: a Deployment with `status: {}`, a custom resource with none.
func TestJudgeKindNoStatus(t *testing.T) {
	obj := func(apiVersion, kind string, status map[string]any) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind,
			"metadata": map[string]any{"name": "web", "namespace": "q", "generation": int64(1)}}}
		if status != nil {
			u.Object["status"] = status
		}
		return u
	}
	cert := schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}
	ago := func(time.Time) string { return "" }
	for _, tc := range []struct {
		name      string
		u         *unstructured.Unstructured
		kind      *Kind // nil: Judge, the built-ins' rules alone
		status    string
		notRec    bool
		line      string
		notInLine string
	}{
		{name: "deployment no controller synced", u: obj("apps/v1", "Deployment", map[string]any{}),
			status: InProgress, notRec: true, line: "; no controller has written its status yet", notInLine: "observedGeneration"},
		{name: "certificate, CRD with a status subresource", u: obj("cert-manager.io/v1", "Certificate", nil), kind: ptr(KindFrom(cert, true)),
			status: InProgress, notRec: true, line: "; no controller has written its status yet", notInLine: "observedGeneration"},
		{name: "certificate, kind unknown", u: obj("cert-manager.io/v1", "Certificate", nil),
			status: Current, line: "; it has no status", notInLine: "observedGeneration"},
		{name: "configmap", u: obj("v1", "ConfigMap", nil),
			status: Current, line: "; the kind has no status, so it cannot say whether a controller has seen the change", notInLine: "observedGeneration"},
		{name: "custom kind without status subresource", u: obj("example.com/v1", "Thing", nil), kind: ptr(KindFrom(schema.GroupKind{Group: "example.com", Kind: "Thing"}, false)),
			status: Current, line: "; it has no status"},
		{name: "deployment with a status but no observedGeneration", u: obj("apps/v1", "Deployment", map[string]any{"replicas": int64(0)}),
			line: "; the kind has no status.observedGeneration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v Verdict
			if tc.kind == nil {
				v = Judge(tc.u)
			} else {
				v = JudgeKind(tc.u, *tc.kind)
			}
			if tc.status != "" && v.Status != tc.status {
				t.Errorf("status %s; want %s (evidence %v)", v.Status, tc.status, v.Evidence)
			}
			if v.NotReconciled != tc.notRec {
				t.Errorf("not reconciled %v; want %v", v.NotReconciled, tc.notRec)
			}
			if tc.notRec && (v.Override != "not-reconciled" || !strings.Contains(v.Message, "no controller has written its status yet")) {
				t.Errorf("override %q, message %q; want not-reconciled, saying no controller has written its status", v.Override, v.Message)
			}
			line := GenerationLine(v, nil, ago)
			if !strings.HasSuffix(line, tc.line) {
				t.Errorf("line %q; want it to end %q", line, tc.line)
			}
			if tc.notInLine != "" && strings.Contains(line, tc.notInLine) {
				t.Errorf("line %q says %q", line, tc.notInLine)
			}
		})
	}
}

// TestKindFrom: a status subresource decides for a custom kind, not for a
// built-in (a Service has one and mostly no status).
func TestKindFrom(t *testing.T) {
	for _, tc := range []struct {
		gk   schema.GroupKind
		sub  bool
		want Kind
	}{
		{schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}, true, Kind{WritesStatus: true}},
		{schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}, false, Kind{}},
		{schema.GroupKind{Kind: "Service"}, true, Kind{}},
		{schema.GroupKind{Kind: "ConfigMap"}, false, Kind{NoStatus: true}},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, true, Kind{WritesStatus: true}},
		{schema.GroupKind{Group: "cluster.x-k8s.io", Kind: "Cluster"}, true, Kind{WritesStatus: true}},
	} {
		if got := KindFrom(tc.gk, tc.sub); got != tc.want {
			t.Errorf("KindFrom(%s, %v) = %+v; want %+v", tc.gk, tc.sub, got, tc.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }
