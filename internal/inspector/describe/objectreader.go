package describe

import (
	"context"

	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// NewObjectReader returns a reader of the objects behind keys, through the
// API server cfg and cs reach, or nil if cfg cannot make a client.
func NewObjectReader(cfg *rest.Config, cs cluster.Clientset) *ObjectReader {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(cs.Discovery()))
	return &ObjectReader{Dynamic: dyn, Core: cs, Mapper: mapper}
}

// Attach is inspector.Attach, and a reader of the objects behind the
// session's keys over the same clientset (built from cfg.REST when
// cfg.Clientset is nil).
func Attach(ctx context.Context, cfg inspector.AttachConfig) (*inspector.Session, *ObjectReader, error) {
	if cfg.Clientset == nil {
		cs, err := cluster.NewClientset(cfg.REST)
		if err != nil {
			return nil, nil, err
		}
		cfg.Clientset = cs
	}
	s, err := inspector.Attach(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, NewObjectReader(cfg.REST, cfg.Clientset), nil
}
