package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/dynamic"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// whyFunc answers the why tool as `kubectl backoff why TYPE/NAME -n NS`
// does: the same asker over the kubeconfig's cluster (built once, on the
// first call), the object read with kubectl's resource builder. A server
// started with --addr answers from that endpoint, as `why --addr` does
// (session s reads it): an operator run with go run has no pods to find.
func (o *MCPOptions) whyFunc(s *inspector.Session) func(ctx context.Context, object, namespace string) (*why.Answer, error) {
	wo := &WhyOptions{configFlags: o.configFlags}
	var (
		once   sync.Once
		asker  *why.Asker
		askErr error
	)
	return func(ctx context.Context, object, namespace string) (*why.Answer, error) {
		once.Do(func() {
			asker, _, askErr = wo.clusterReader() // its port-forwards live as long as the server
			if askErr == nil && o.addr != "" {
				asker.Direct = &why.Direct{Session: s, Addrs: []string{o.addr}}
			}
		})
		if askErr != nil {
			return nil, askErr
		}
		u, res, err := o.whyObject(object, namespace)
		if err != nil {
			return nil, err
		}
		return asker.Ask(ctx, u, res), nil
	}
}

// whyObject reads one object as why's resource builder does, in namespace
// (the kubeconfig's when empty): short names, TYPE.GROUP/NAME.
func (o *MCPOptions) whyObject(object, namespace string) (*unstructured.Unstructured, string, error) {
	ns := namespace
	if ns == "" {
		var err error
		if ns, _, err = o.configFlags.ToRawKubeConfigLoader().Namespace(); err != nil {
			return nil, "", fmt.Errorf("kubeconfig: namespace: %w", err)
		}
	}
	infos, err := resource.NewBuilder(o.configFlags).
		Unstructured().
		NamespaceParam(ns).DefaultNamespace().
		ResourceTypeOrNameArgs(true, object).
		Latest().
		Flatten().
		Do().Infos()
	if err != nil {
		return nil, "", readError(err)
	}
	for _, info := range infos {
		if u, ok := info.Object.(*unstructured.Unstructured); ok {
			res := ""
			if info.Mapping != nil {
				res = info.Mapping.Resource.Resource
			}
			return u, res, nil
		}
	}
	return nil, "", fmt.Errorf("no objects found for %s", object)
}

// kickFunc kicks as `kubectl backoff kick` does: the objects' kind from the
// controller the session reads, a SelfSubjectAccessReview first, then the
// annotation.
func (o *MCPOptions) kickFunc(s *inspector.Session) func(ctx context.Context, controller string, keys []string) ([]kick.Result, error) {
	return func(ctx context.Context, controller string, keys []string) ([]kick.Result, error) {
		cfg, err := o.configFlags.ToRESTConfig()
		if err != nil {
			return nil, fmt.Errorf("%s; kubeconfig: %w", kickNeedsCluster, err)
		}
		cs, err := cluster.NewClientset(cfg)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		dyn, err := dynamic.NewForConfig(cfg)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		mapper, err := o.configFlags.ToRESTMapper()
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		k := &kick.Kicker{Mapper: mapper, Dynamic: dyn, Reviews: cs.AuthorizationV1().SelfSubjectAccessReviews()}
		targets, err := kickTargets(ctx, k, s, controller, keys, kickAsTool)
		if err != nil {
			return nil, err
		}
		results, err := k.KickTargets(ctx, targets)
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			return results, fmt.Errorf("cannot reach the API server at %s: %s; kick patches the objects through it", cfg.Host, netCause(ue.Err))
		}
		return results, err
	}
}
