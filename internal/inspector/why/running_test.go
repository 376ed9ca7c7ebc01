package why

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestPodState: a pod's state in a few words, on pods built as the kubelet
// reports them (a readiness probe that never passes, a crash loop, a pod no
// node fits).
func TestPodState(t *testing.T) {
	notReady := corev1.PodStatus{Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
			{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", Message: "containers with unready status: [web]"},
			{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", Message: "containers with unready status: [web]"},
		},
		ContainerStatuses: []corev1.ContainerStatus{{Name: "web", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}}
	crashing := notReady
	crashing.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{
		Reason: "CrashLoopBackOff", Message: "back-off 5m0s restarting failed container=web pod=web-1"}}}}
	tests := []struct {
		status corev1.PodStatus
		want   string
	}{
		{notReady, "Running, not ready (ContainersNotReady: containers with unready status: [web])"},
		{crashing, "container web CrashLoopBackOff: back-off 5m0s restarting failed container=web pod=web-1"},
		{corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable",
			Message: "0/3 nodes are available: 3 Insufficient cpu."}}}, "not scheduled (Unschedulable): 0/3 nodes are available: 3 Insufficient cpu."},
		{corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}, "Running"},
		{corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}}, "Running, not ready"},
		{corev1.PodStatus{}, "Pending"},
	}
	for _, tt := range tests {
		if got := podState(corev1.Pod{Status: tt.status}); got != tt.want {
			t.Errorf("podState = %q, want %q", got, tt.want)
		}
	}
}
