package logs

import (
	"strings"
	"testing"
)

// TestCallerPackageField: a dialect's failure line that names its object
// only by a namespace field and a field named like its caller's package is
// that object's (callerfield.go): numaflow's pipeline reconciler's own
// `Reconcile error` (batch25/2503, verbatim: caller
// "pipeline/controller.go:85", "namespace" and "pipeline" fields), in JSON
// and in zap's console encoding. The same line from another package, or
// without its namespace, or from controller-runtime's and knative's package
// "controller", names no key. The controller is named after the kind, as
// controller-runtime's are, not after the process its logger names.
func TestCallerPackageField(t *testing.T) {
	log := readTestdata(t, "testdata/batch25/2503-numaflow-json-own-reconcile-error-pipeline-field-returned-cut-in-stacktrace.log")
	line := strings.Split(log, "\n")[0]
	if !strings.Contains(line, `"caller":"pipeline/controller.go:85","msg":"Reconcile error","namespace":"example-namespace","pipeline":"simple-pipeline"`) {
		t.Fatalf("2503 is not numaflow's pipeline Reconcile error: %.200s", line)
	}
	console := "2024-08-20T23:15:34.817Z\tERROR\tnumaflow.controller-manager\tpipeline/controller.go:85\tReconcile error\t" +
		`{"namespace": "example-namespace", "pipeline": "simple-pipeline", "error": "rpc error: code = Unavailable desc = connection error"}`
	for _, tt := range []struct{ name, line, key string }{
		{"the JSON line", line, "example-namespace/simple-pipeline"},
		{"zap's console encoding", console, "example-namespace/simple-pipeline"},
		{"a caller's full path", strings.Replace(line, `"caller":"pipeline/`, `"caller":"github.com/numaproj/numaflow/pkg/reconciler/pipeline/`, 1), "example-namespace/simple-pipeline"},
		{"another package", strings.Replace(line, `"caller":"pipeline/`, `"caller":"vertex/`, 1), ""},
		{"no namespace", strings.Replace(line, `"namespace":"example-namespace",`, "", 1), ""},
		{"controller-runtime's package", strings.Replace(strings.Replace(line, `"caller":"pipeline/`, `"caller":"controller/`, 1), `"pipeline":`, `"controller":`, 1), ""},
		{"a path in the field", strings.Replace(line, `"pipeline":"simple-pipeline"`, `"pipeline":"a/b/c"`, 1), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, keys := readLog(t, corpusClock, tt.line).views("")
			switch {
			case tt.key == "" && len(keys) != 0:
				t.Errorf("read %s, want no key", keys[0].Key)
			case tt.key != "" && (len(keys) != 1 || keys[0].Key != tt.key || keys[0].TotalFailures != 1):
				t.Errorf("read %+v, want one failure of %s", keys, tt.key)
			case tt.key != "" && keys[0].Controller != "pipeline":
				t.Errorf("controller %q, want pipeline (its kind, not its process's logger)", keys[0].Controller)
			}
		})
	}
	for _, tt := range []struct{ caller, pkg string }{
		{"pipeline/controller.go:85", "pipeline"},
		{"github.com/x/pkg/reconciler/isbsvc/controller.go:12", "isbsvc"},
		{"controller.go:85", ""},
		{"/controller.go:85", ""},
	} {
		if got := string(callerPkgOf([]byte(tt.caller))); got != tt.pkg {
			t.Errorf("callerPkgOf(%q) = %q, want %q", tt.caller, got, tt.pkg)
		}
	}
}
