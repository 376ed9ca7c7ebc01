package why

import (
	"context"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// Kinds says what a kind promises about its status: whether a controller
// always writes one (a CRD's status subresource, a built-in's rule).
type Kinds interface {
	// KindOf is the Kind of gvk, whose plural resource is resource ("" if
	// unknown).
	KindOf(ctx context.Context, gvk schema.GroupVersionKind, resource string) objstatus.Kind
}

// DiscoveryKinds reads status subresources from discovery, once per
// group/version: a CRD with `subresources: {status: {}}` is served with a
// RESOURCE/status entry, so no read of the CRD itself (and no RBAC on
// customresourcedefinitions) is needed.
type DiscoveryKinds struct {
	Discovery discovery.DiscoveryInterface

	lists map[string][]string // group/version → its resources' names, subresources included
}

var _ Kinds = &DiscoveryKinds{}

// KindOf implements Kinds; when discovery cannot be read, the built-ins'
// rules alone decide (a custom kind is then unknown, never "not reconciled").
func (d *DiscoveryKinds) KindOf(_ context.Context, gvk schema.GroupVersionKind, resource string) objstatus.Kind {
	gk := gvk.GroupKind()
	if d == nil || d.Discovery == nil {
		return objstatus.KindOf(gk)
	}
	gv := gvk.GroupVersion().String()
	names, ok := d.lists[gv]
	if !ok {
		list, err := d.Discovery.ServerResourcesForGroupVersion(gv)
		if err == nil {
			for _, r := range list.APIResources {
				names = append(names, r.Name)
				if resource == "" && r.Kind == gvk.Kind && !strings.Contains(r.Name, "/") {
					resource = r.Name
				}
			}
		}
		if d.lists == nil {
			d.lists = map[string][]string{}
		}
		d.lists[gv] = names // nil on error: not asked again
	}
	if names == nil {
		return objstatus.KindOf(gk)
	}
	if resource == "" {
		resource = pluralGuess(gvk.Kind)
	}
	return objstatus.KindFrom(gk, slices.Contains(names, resource+"/status"))
}

// pluralGuess is the resource of a kind discovery did not name (the lower-
// case plural kubectl guesses first).
func pluralGuess(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"):
		return k + "es"
	case strings.HasSuffix(k, "y"):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

// judge is Judge with the kind's promise, read through a.Kinds when set.
func (a *Asker) judge(ctx context.Context, u *unstructured.Unstructured, resource string) Verdict {
	if a.Kinds == nil {
		return Judge(u)
	}
	return objstatus.JudgeKind(u, a.Kinds.KindOf(ctx, u.GroupVersionKind(), resource))
}
