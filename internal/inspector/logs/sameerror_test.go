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
// (twice, not three times); alone, or with another error, or before any
// failure of its key, it is no failure; batch 12's 1201 (the same
// controller's error logged before a RequeueAfter) stays no key.
func TestSameErrorAgain(t *testing.T) {
	log := readTestdata(t, "testdata/batch7/745-cluster-api-provider-metal3-klogr-reconciler-error-then-inner-cause-handler-cut.log")
	lines := strings.SplitAfter(log, "\n")
	handler := strings.Replace(lines[0], "E0325 08:26:17.011540", "E0325 08:26:23.152600", 1)
	const errPrefix = "failed to create remote cluster client"
	for _, tt := range []struct {
		name, log, key string
		failures       int
	}{
		{"the handler's line cut", log, "metal3/test1-controlplane", 2},
		{"the handler's line there", log + handler, "metal3/test1-controlplane", 2},
		{"another error", lines[0] + lines[1] + strings.Replace(lines[2], `"error"="failed to create remote`, `"error"="failed to patch remote`, 1), "metal3/test1-controlplane", 1},
		{"no failure of its key before", strings.Join(lines[1:], ""), "", 0},
		{"a RequeueAfter's error line (batch12/1201)", readTestdata(t, "testdata/batch12/1201-negative-cluster-api-kcp-klogr-health-check-error-requeue-after-lowercase-kind-field.log"), "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: "kubeadmcontrolplane", key: tt.key, errPrefix: errPrefix, failures: tt.failures})
		})
	}
}
