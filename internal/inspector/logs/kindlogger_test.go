package logs

import (
	"strings"
	"testing"
)

// TestKindNamedByLogger pins kindlogger.go, learnt from the training batch
// 8 (testdata/batch8/802, sail-operator, verbatim; its README has the
// source): a controller-runtime "Reconciler error" whose controller and key
// are said only by the logger's name and the field named after that
// controller's kind. The other lines are that line edited, each to take
// away one of the two agreeing parts.
func TestKindNamedByLogger(t *testing.T) {
	sail := strings.Split(readTestdata(t, "testdata/batch8/802-sail-operator-zapconsole-reconciler-error-cluster-scoped-istio.log"), "\n")[0]
	for _, tt := range []struct {
		name, line                 string
		controller, key, errPrefix string // key "": not read
	}{
		{"logger ctrlr.istio, field Istio: a cluster-scoped key", sail,
			"istio", "default", `failed to resolve Istio version for "default"`},
		{"a namespaced key in the kind's field",
			strings.NewReplacer("ctrlr.istio", "ctrlr.istiorevision", `"Istio": "default"`, `"IstioRevision": "istio-system/default"`).Replace(sail),
			"istiorevision", "istio-system/default", "failed to resolve Istio version"},
		{"the logger names another kind", strings.Replace(sail, "ctrlr.istio", "ctrlr.istiocni", 1), "", "", ""},
		{"no logger", strings.Replace(sail, "ctrlr.istio    ", "", 1), "", "", ""},
		{"two kind-named fields of two keys", strings.Replace(sail, `"Istio": "default"`, `"Istio": "default", "Gateway": "other"`, 1), "", "", ""},
		{"the kind's field holds no key", strings.Replace(sail, `"Istio": "default"`, `"Istio": "Default Value"`, 1), "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantLineRead(t, tt.line, tt.controller, tt.key, tt.errPrefix)
		})
	}
}
