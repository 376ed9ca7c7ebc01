package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// workloadOf names the workload a pod belongs to, "namespace/kind/name":
// its deployment (through the ReplicaSet that carries the pod-template-hash),
// statefulset, other owner, or the pod itself. Replicas of one workload are
// one controller deployment: one leader, the rest standby or shards.
func workloadOf(p corev1.Pod) string {
	for _, o := range p.OwnerReferences {
		if o.Controller == nil || !*o.Controller {
			continue
		}
		switch o.Kind {
		case "ReplicaSet":
			if h := p.Labels["pod-template-hash"]; h != "" && strings.HasSuffix(o.Name, "-"+h) {
				return p.Namespace + "/deploy/" + strings.TrimSuffix(o.Name, "-"+h)
			}
			return p.Namespace + "/rs/" + o.Name
		case "StatefulSet":
			return p.Namespace + "/sts/" + o.Name
		default:
			return p.Namespace + "/" + strings.ToLower(o.Kind) + "/" + o.Name
		}
	}
	return p.Namespace + "/pod/" + p.Name
}

// FailFast wraps a tunnel's Addr for a cluster-wide session: the first
// attempt is waited for, but once a tunnel has failed, a request fails at
// once with why, so one unreachable pod does not hold up every refresh.
func FailFast(t *Tunnel) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		for {
			t.mu.Lock()
			st, changed := t.state, t.changed
			t.mu.Unlock()
			switch {
			case st.Phase == PhaseConnected, st.Phase == PhaseStopped:
				return t.Addr(ctx)
			case st.Attempts > 0:
				return "", errors.New(st.LastError) // it names the pod
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return "", fmt.Errorf("port-forward %s: %w", st.Pod, context.Cause(ctx))
			}
		}
	}
}
