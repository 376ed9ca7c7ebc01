package inspector

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// The cluster-wide view (-A without a TARGET, or -A -l SELECTOR): every
// instrumented pod found is attached to, whatever controller it runs, and
// their keys shown as one list naming each key's pod.
const (
	// maxPods caps how many pods a cluster-wide attach opens tunnels to:
	// beyond it the view stops being one a person reads, and the API server
	// carries a port-forward per pod. More found are said, not attached.
	maxPods = 50
	// maxOpening bounds how many of those tunnels open at once, so a large
	// fleet does not burst port-forward requests at the API server.
	maxOpening = 8
	// maxCalls bounds a session's calls in flight at once across its
	// endpoints: a refresh of 50 pods is then 8 streams through the API
	// server at a time, not 150.
	maxCalls = 8
)

// clusterWide reports whether cfg asks for the cluster-wide view: -A, and
// no workload or pod named (a label selector only narrows it).
func (cfg AttachConfig) clusterWide() bool { return cfg.search().ClusterWide() }

// search is what cfg looks for, as cluster.Resolve and the tunnels' pod
// slots take it.
func (cfg AttachConfig) search() cluster.Search {
	return cluster.Search{Target: cfg.Target, Namespace: cfg.Namespace, AllNamespaces: cfg.AllNamespaces, Port: cfg.Port}
}

// Found is how many instrumented pods discovery found, and how many the
// session attached to: fewer when more than maxPods were found.
func (s *Session) Found() (attached, found int) {
	return len(s.endpoints), max(s.found, len(s.endpoints))
}

// CapNote says, when the session left pods out, how many and how to narrow
// the search, in AttachConfig's words (a selector, one namespace); "" when
// it attached to every pod found. A command adds its flags for them.
func (s *Session) CapNote() string {
	attached, found := s.Found()
	if found <= attached {
		return ""
	}
	return fmt.Sprintf("found %d instrumented pods, attached to the first %d (at most %d): narrow the search by a selector, or look in one namespace instead of all",
		found, attached, maxPods)
}

// ClusterWide reports whether the session is a cluster-wide view: its
// endpoints may run different controllers, and one that cannot be reached
// is left out of the answers rather than failing them.
func (s *Session) ClusterWide() bool { return s.clusterWide }
