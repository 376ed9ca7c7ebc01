package objstatus

import "testing"

// TestDeciding: the condition an answer names. The first two sets are a
// Deployment's as kube-controller-manager 1.37 wrote them in the e2e tier
// (pods that never become ready, a progress deadline of 10 s; a quota that
// allows no pods); the third is the Kubernetes documentation's "Failed
// Deployment" (concepts/workloads/controllers/deployment).
func TestDeciding(t *testing.T) {
	deadline := Condition{Type: "Progressing", Status: "False", Reason: "ProgressDeadlineExceeded", Message: `ReplicaSet "web-5f9c9d5cf8" has timed out progressing.`}
	unavailable := Condition{Type: "Available", Status: "False", Reason: "MinimumReplicasUnavailable", Message: "Deployment does not have minimum availability."}
	quota := Condition{Type: "ReplicaFailure", Status: "True", Reason: "FailedCreate",
		Message: `Error creating: pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`}
	docsDeadline := Condition{Type: "Progressing", Status: "False", Reason: "ProgressDeadlineExceeded", Message: `ReplicaSet "nginx-deployment-4262182780" has timed out progressing.`}
	tests := []struct {
		name  string
		conds []Condition
		want  Condition
	}{
		// Failed by the deadline: Available=False says only that the pods
		// are not there, the deadline says why it is Failed.
		{"deadline over unavailable", []Condition{unavailable, deadline}, deadline},
		{"unavailable, still progressing", []Condition{unavailable,
			{Type: "Progressing", Status: "True", Reason: "ReplicaSetUpdated", Message: `ReplicaSet "web-69c6f74b8b" is progressing.`}}, unavailable},
		// The cause the deadline follows from is named before it.
		{"quota over deadline", []Condition{{Type: "Available", Status: "True", Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."}, docsDeadline, quota}, quota},
	}
	for _, tt := range tests {
		got, ok := Deciding(tt.conds)
		if !ok || got.Type != tt.want.Type || got.Message != tt.want.Message {
			t.Errorf("%s: Deciding = %+v, %v; want %s (%s)", tt.name, got, ok, tt.want.Type, tt.want.Reason)
		}
	}
}
