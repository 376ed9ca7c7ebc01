package why

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AskObject answers for the object o names, read again from the API server
// through the Graph: a node of a chain the user opens (the TUI's chain
// view). The answer walks its own chain, as `why TYPE/NAME` does.
func (a *Asker) AskObject(ctx context.Context, o Object) (*Answer, error) {
	if a.Graph == nil {
		return nil, fmt.Errorf("%s: the chain is not read (no dynamic client)", o.Ref())
	}
	gv, err := schema.ParseGroupVersion(o.APIVersion)
	if err != nil {
		return nil, fmt.Errorf("%s: apiVersion %q: %w", o.Ref(), o.APIVersion, err)
	}
	k, ok := a.Graph.resolve(gv.Group, o.Kind, true, gv.Group)
	if !ok {
		return nil, fmt.Errorf("%s: kind %s is not served by the API server", o.Ref(), o.Kind)
	}
	u, err := a.Graph.get(ctx, k, o.Namespace, o.Name)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", o.Ref(), err)
	case u == nil:
		return nil, fmt.Errorf("%s: not found: it was deleted, or never existed", o.Ref())
	}
	return a.Ask(ctx, u, k.Resource), nil
}
