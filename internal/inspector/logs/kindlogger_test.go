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

// TestKindNamedByLoggerObject pins the object form, learnt from
// batch16/1620 (KubeRay's ray-operator run here, verbatim): the logger
// "controllers.RayCluster" (capitalised) and the one object field
// "RayCluster":{"name":…,"namespace":…}, with no controller field. The
// other lines are that line edited, each to take away one of the two
// agreeing parts.
func TestKindNamedByLoggerObject(t *testing.T) {
	var ray string
	for _, l := range strings.Split(readTestdata(t, "testdata/batch16/1620-kuberay-zap-json-head-pod-service-account-missing-inner-error-warning-reconciler-error-interleaved.log"), "\n") {
		if strings.Contains(l, `"msg":"Reconciler error"`) {
			ray = l
			break
		}
	}
	for _, tt := range []struct {
		name, line                 string
		controller, key, errPrefix string // key "": not read
	}{
		{"logger controllers.RayCluster, object field RayCluster", ray,
			"raycluster", "ml-train/llm-finetune", "FailedCreateHeadPod\npods \"llm-finetune-head-\" is forbidden"},
		{"the logger names another kind", strings.Replace(ray, "controllers.RayCluster", "controllers.RayJob", 1), "", "", ""},
		{"no logger", strings.Replace(ray, `"logger":"controllers.RayCluster",`, "", 1), "", "", ""},
		{"two kind-named object fields", strings.Replace(ray, `"RayCluster":{`, `"RayJob":{"name":"x","namespace":"y"},"RayCluster":{`, 1), "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantLineRead(t, tt.line, tt.controller, tt.key, tt.errPrefix)
		})
	}
}
