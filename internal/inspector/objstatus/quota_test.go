package objstatus

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestQuotaRoom: whether a quota still refuses what a failure's message
// says it refused. The messages are the quota admission plugin's; the
// first is kube-controller-manager 1.37's on a quota of pods=0, read again
// after the user raised it to 2 and the ReplicaSet created both pods (the
// ReplicaFailure message is kept from the first failure: "used 2 of hard
// 2, 1 requested" was said as a refusal, and "Change resourcequota/q").
func TestQuotaRoom(t *testing.T) {
	quota := func(hard, used string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{
			"hard": map[string]any{"pods": hard}, "used": map[string]any{"pods": used}}}}
	}
	const zero = `pods "web-7655778b6f-fq7nf" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`
	const one = `Error creating: pods "web-7655778b6f-x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1`
	const docs = `Error creating: pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`
	for _, tt := range []struct {
		name, msg, hard, used string
		full                  bool
		line                  string
	}{
		{"raised since, what it refused now created", zero, "2", "2", false,
			"raised since it refused: pods: hard 0 then, 2 now: room for the 1 requested at used 0 (used 2 now)"},
		{"raised, not yet used", zero, "2", "0", false, "has room now: pods: used 0 of hard 2, 1 requested"},
		{"not raised", zero, "0", "0", true, "exceeded: pods: used 0 of hard 0, 1 requested"},
		{"refused again at the new limit", one, "1", "1", true, "exceeded: pods: used 1 of hard 1, 1 requested"},
		{"raised, yet too little for what it refused", docs, "3", "3", true, "exceeded: pods: used 3 of hard 3, 1 requested"},
		{"raised enough", docs, "5", "3", false, "has room now: pods: used 3 of hard 5, 1 requested"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			full, line := QuotaRoom(quota(tt.hard, tt.used), tt.msg)
			if full != tt.full || line != tt.line {
				t.Errorf("QuotaRoom = %v, %q; want %v, %q", full, line, tt.full, tt.line)
			}
		})
	}
}
