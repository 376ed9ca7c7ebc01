package inspector

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// The cluster-wide view (-A without a TARGET, or -A -l SELECTOR): every
// instrumented pod found is attached to, whatever controller it runs, and
// their keys shown as one list naming each key's pod.
const (
	// MaxPods caps how many pods a cluster-wide attach opens tunnels to:
	// beyond it the view stops being one a person reads, and the API server
	// carries a port-forward per pod. More found are said, not attached.
	MaxPods = 50
	// MaxOpening bounds how many of those tunnels open at once, so a large
	// fleet does not burst port-forward requests at the API server.
	MaxOpening = 8
	// MaxCalls bounds a session's calls in flight at once across its
	// endpoints: a refresh of 50 pods is then 8 streams through the API
	// server at a time, not 150.
	MaxCalls = 8
)

// clusterWide reports whether cfg asks for the cluster-wide view: -A, and
// no workload or pod named (a label selector only narrows it).
func (cfg AttachConfig) clusterWide() bool {
	return cfg.AllNamespaces && cfg.Target.Kind == ""
}

// Found is how many instrumented pods discovery found, and how many the
// session attached to: fewer when more than MaxPods were found.
func (s *Session) Found() (attached, found int) {
	return len(s.endpoints), max(s.found, len(s.endpoints))
}

// CapNote says, when the session left pods out, how many and how to narrow
// the search; "" when it attached to every pod found.
func (s *Session) CapNote() string {
	attached, found := s.Found()
	if found <= attached {
		return ""
	}
	return fmt.Sprintf("found %d instrumented pods, attached to the first %d (at most %d): narrow with -l SELECTOR, or look in one namespace with -n NAMESPACE instead of -A",
		found, attached, MaxPods)
}

// ClusterWide reports whether the session is a cluster-wide view: its
// endpoints may run different controllers, and one that cannot be reached
// is left out of the answers rather than failing them.
func (s *Session) ClusterWide() bool { return s.clusterWide }

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

// failFast wraps a tunnel's Addr for a cluster-wide session: the first
// attempt is waited for, but once a tunnel has failed, a request fails at
// once with why, so one unreachable pod does not hold up every refresh.
func failFast(t *Tunnel) func(ctx context.Context) (string, error) {
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
