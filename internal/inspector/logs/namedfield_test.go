package logs

import (
	"strings"
	"testing"
)

// linesWith is the lines of log holding sub, joined.
func linesWith(log, sub string) string {
	var out []string
	for l := range strings.SplitSeq(log, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// TestNamedFieldCandidate: kube-controller-manager's PVC protection
// controller's "Error removing protection finalizer from PVC" err=…
// PVC="ns/x" (batch14/1440, run here), six attempts 1.3 s, 2.6 s, 5.1 s,
// 10.3 s and 20.5 s apart, is the claim's failure once its gaps grow as a
// work queue's limiter's do; one such line alone is not, nor a field the
// message does not name, nor a line without an error field or at info
// level.
func TestNamedFieldCandidate(t *testing.T) {
	pvc := linesWith(readTestdata(t, "testdata/batch14/1440-kube-controller-manager-klog-node-ipam-cidr-exhausted-pvc-protection-name-slash-namespace-pv-protection.log"), "pvc_protection_controller.go:323]")
	first := pvc[:strings.IndexByte(pvc, '\n')+1]
	for _, tt := range []struct {
		name, log, key string
		failures       int
	}{
		{"growing gaps", pvc, "vault/audit-log-0", 6},
		{"one line alone", first, "", 0},
		{"a field the message does not name", strings.ReplaceAll(pvc, ` PVC="`, ` claim="`), "", 0},
		{"no error field", strings.ReplaceAll(pvc, ` err="`, ` reason="`), "", 0},
		{"at info level", strings.ReplaceAll("\n"+pvc, "\nE1207", "\nI1207")[1:], "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{key: tt.key,
				errPrefix: `persistentvolumeclaims "audit-log-0" is forbidden`, failures: tt.failures})
		})
	}
}
