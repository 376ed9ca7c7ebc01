package why

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AskObject answers for the object o names, read again from the API server
// through the Graph: a node of a chain the user opens (the TUI's chain
// view). The answer walks its own chain, as `why TYPE/NAME` does.
func (a *Asker) AskObject(ctx context.Context, o Object) (*Answer, error) {
	u, resource, err := a.read(ctx, o)
	if err != nil {
		return nil, err
	}
	return a.Ask(ctx, u, resource), nil
}

// ChainOf walks the chain of the object o names, and asks nothing of its
// blockers' controllers: what a key's detail shows under the key (the
// blocker's line), at the cost of the walk alone.
func (a *Asker) ChainOf(ctx context.Context, o Object) (*Chain, error) {
	u, _, err := a.read(ctx, o)
	if err != nil {
		return nil, err
	}
	return a.Graph.Walk(ctx, u, func(x *unstructured.Unstructured, res string) Verdict { return a.judge(ctx, x, res) }), nil
}

// read reads the object o names, and its resource.
func (a *Asker) read(ctx context.Context, o Object) (*unstructured.Unstructured, string, error) {
	if a.Graph == nil {
		return nil, "", fmt.Errorf("%s: the chain is not read (no dynamic client)", o.Ref())
	}
	gv, err := schema.ParseGroupVersion(o.APIVersion)
	if err != nil {
		return nil, "", fmt.Errorf("%s: apiVersion %q: %w", o.Ref(), o.APIVersion, err)
	}
	k, ok := a.Graph.resolve(gv.Group, o.Kind, true, gv.Group)
	if !ok {
		return nil, "", fmt.Errorf("%s: kind %s is not served by the API server", o.Ref(), o.Kind)
	}
	u, err := a.Graph.get(ctx, k, o.Namespace, o.Name)
	switch {
	case err != nil:
		return nil, "", fmt.Errorf("%s: %w", o.Ref(), err)
	case u == nil:
		return nil, "", fmt.Errorf("%s: not found: it was deleted, or never existed", o.Ref())
	}
	return u, k.Resource, nil
}
