package inspector

import (
	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// NewObjectReader returns a reader of the objects behind keys for a session
// opened other than by Attach (a controller's log), or nil if cfg cannot
// make a client.
func NewObjectReader(cfg *rest.Config, cs cluster.Clientset) *ObjectReader {
	return objectReader(cfg, cs)
}
