package logs

import (
	"strings"
	"testing"
)

// TestSameErrorAgain: cluster-api's KubeadmControlPlane reconciler logs
// "Failed to update KubeadmControlPlane Status" with the error its
// "Reconciler error" stated six seconds before, and the paste is cut
// before that attempt's own "Reconciler error" (batch7/745): the key
// failed twice. Its handler's line, when it does follow, takes its place
// (twice, not three times), and so does controller-runtime's "returned
// both" warning of its attempt; alone, or with another error, or before any
// failure of its key, it is no failure; batch 12's 1201 (the same
// controller's error logged before a RequeueAfter) stays no key.
func TestSameErrorAgain(t *testing.T) {
	log := readTestdata(t, "testdata/batch7/745-cluster-api-provider-metal3-klogr-reconciler-error-then-inner-cause-handler-cut.log")
	lines := strings.SplitAfter(log, "\n")
	handler := strings.Replace(lines[0], "E0325 08:26:17.011540", "E0325 08:26:23.152600", 1)
	// controller-runtime's "returned both" warning of the same attempt
	// (batch4/326's, put on this key): one attempt with the line before.
	warn := strings.SplitAfter(readTestdata(t, "testdata/batch4/326-aibrix-klogr-inner-error-and-both-result-and-error-warning.log"), "\n")[1]
	warn = strings.NewReplacer("I0706 08:04:46.350892", "I0325 08:26:23.152600",
		`"RoleSet"={"name":"llm-xpyd-roleset-fkh4v","namespace":"default"} "controller"="roleset-controller" "controllerGroup"="orchestration.aibrix.ai" "controllerKind"="RoleSet" "name"="llm-xpyd-roleset-fkh4v" "namespace"="default"`,
		`"controller"="kubeadmcontrolplane" "name"="test1-controlplane" "namespace"="metal3"`).Replace(warn)
	const errPrefix = "failed to create remote cluster client"
	for _, tt := range []struct {
		name, log, key string
		failures       int
	}{
		{"the handler's line cut", log, "metal3/test1-controlplane", 2},
		{"the handler's line there", log + handler, "metal3/test1-controlplane", 2},
		{"a returned-both warning after it", log + warn, "metal3/test1-controlplane", 2},
		{"another error", lines[0] + lines[1] + strings.Replace(lines[2], `"error"="failed to create remote`, `"error"="failed to patch remote`, 1), "metal3/test1-controlplane", 1},
		{"no failure of its key before", strings.Join(lines[1:], ""), "", 0},
		{"a RequeueAfter's error line (batch12/1201)", readTestdata(t, "testdata/batch12/1201-negative-cluster-api-kcp-klogr-health-check-error-requeue-after-lowercase-kind-field.log"), "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: "kubeadmcontrolplane", key: tt.key, errPrefix: errPrefix, failures: tt.failures})
		})
	}
}

// TestSameErrorInsideReconcile: a line logged inside Reconcile (its
// reconcileID) that repeats its key's last error is left to
// controller-runtime's own lines of that reconcileID: with the "returned
// both" warning of its attempt and that attempt's "Reconciler error" cut,
// the attempt counts once (the warning), not twice. A real controller's
// log under load (TestBothResultAndErrorWarning, its gaps too irregular to
// decide the template) counted it twice before.
func TestSameErrorInsideReconcile(t *testing.T) {
	const e = `"error":"dial tcp 10.0.0.7:443: connect: connection refused"`
	log := `{"level":"error","ts":1796662937.1000000,"logger":"widget","msg":"failed to sync default/b1","reconcileID":"id1",` + e + `}
{"level":"error","ts":1796662937.1000500,"msg":"Reconciler error","controller":"widget","namespace":"default","name":"b1","reconcileID":"id1",` + e + `}
{"level":"error","ts":1796662939.4000000,"logger":"widget","msg":"failed to sync default/b1","reconcileID":"id2",` + e + `}
{"level":"info","ts":1796662939.4000400,"msg":"Warning: Reconciler returned both a non-zero result and a non-nil error. The result will always be ignored if the error is non-nil and the non-nil error causes reqeueuing with exponential backoff. For more details, see: https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile#Reconciler","controller":"widget","namespace":"default","name":"b1","reconcileID":"id2"}
`
	wantOneKey(t, log, oneKeyCase{controller: "widget", key: "default/b1", failures: 2})
}
