package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Search is what Resolve looks for: the pods of Target in Namespace (every
// namespace when AllNamespaces), on Port.
type Search struct {
	Target        Target
	Namespace     string
	AllNamespaces bool
	Port          PortSpec
}

// ClusterWide reports whether the search is the cluster-wide view: -A, and
// no workload or pod named (a label selector only narrows it).
func (s Search) ClusterWide() bool {
	return s.AllNamespaces && s.Target.Kind == ""
}

// PodSlots hands each tunnel a pod of the search: its own while it runs,
// and after a restart or rollout, a running pod no other tunnel has.
type PodSlots struct {
	cs     Clientset
	search Search

	mu    sync.Mutex
	taken map[string]bool
}

// NewPodSlots returns slots for the pods of search, each of pods taken by
// the tunnel that will forward to it.
func NewPodSlots(cs Clientset, search Search, pods []Pod) *PodSlots {
	s := &PodSlots{cs: cs, search: search, taken: map[string]bool{}}
	for _, p := range pods {
		s.taken[p.String()] = true
	}
	return s
}

// Resolver is the ResolveFunc of the tunnel that starts at p: p while it
// runs, else a free pod of the search (of p's own workload, cluster-wide).
func (s *PodSlots) Resolver(p Pod) ResolveFunc {
	cur := p
	return func(ctx context.Context) (string, string, int, error) {
		pod, err := s.cs.CoreV1().Pods(cur.Namespace).Get(ctx, cur.Name, metav1.GetOptions{})
		if err == nil && pod.Status.Phase == corev1.PodRunning && pod.DeletionTimestamp == nil {
			return cur.Namespace, cur.Name, cur.Port, nil
		}
		if s.search.Target.Kind == KindPod {
			if err == nil {
				err = fmt.Errorf("pod %s is %s", cur, pod.Status.Phase)
			}
			return "", "", 0, err
		}
		pods, rerr := Resolve(ctx, s.cs, s.search.Target, s.search.Namespace, s.search.AllNamespaces, s.search.Port)
		if rerr != nil {
			return "", "", 0, errors.Join(err, rerr)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, np := range pods {
			// Cluster-wide, a pod is replaced only by one of its own
			// workload: another is another controller.
			if !s.taken[np.String()] && (!s.search.ClusterWide() || np.Workload == cur.Workload) {
				delete(s.taken, cur.String())
				s.taken[np.String()] = true
				cur = np
				return np.Namespace, np.Name, np.Port, nil
			}
		}
		return "", "", 0, fmt.Errorf("%s: pod %s is gone and no other pod is free", s.search.Target, cur)
	}
}
