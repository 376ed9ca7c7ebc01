package why

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
)

// Graph reads the objects of a chain: any kind, through the dynamic client,
// resolved by discovery (read once: one aggregated request on a current API
// server; a group whose discovery fails — the broken APIService a stuck
// namespace names — leaves the others usable).
type Graph struct {
	Dynamic   dynamic.Interface
	Discovery discovery.DiscoveryInterface
	// Limits bound the walk; zero fields take their defaults.
	Limits Limits

	index    []kindInfo
	read     bool
	lists    map[string][]unstructured.Unstructured // gvr/namespace → items, read once per walk
	listed   map[string]string                      // gvr/namespace → what was cut, if anything
	requests int                                    // made by this walk (Limits.Requests)
}

// errRequests is a read refused because the walk has made Limits.Requests.
var errRequests = errors.New("the walk's request limit is reached")

// spend counts one request, or refuses it past Limits.Requests.
func (g *Graph) spend() error {
	if g.requests >= g.Limits.withDefaults().Requests {
		return errRequests
	}
	g.requests++
	return nil
}

// kindInfo is one listable kind as discovery serves it.
type kindInfo struct {
	GVK        schema.GroupVersionKind
	Resource   string
	Singular   string
	Namespaced bool
}

// kinds reads discovery once.
func (g *Graph) kinds() []kindInfo {
	if g.read || g.Discovery == nil {
		return g.index
	}
	g.read = true
	lists, err := discovery.ServerPreferredResources(g.Discovery)
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) && len(lists) == 0 {
		return nil
	}
	// Subresources are not in the preferred list: read them per group/version.
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !hasVerb(r.Verbs, "get") {
				continue
			}
			singular := r.SingularName
			if singular == "" {
				singular = strings.ToLower(r.Kind)
			}
			g.index = append(g.index, kindInfo{GVK: gv.WithKind(r.Kind), Resource: r.Name, Singular: singular, Namespaced: r.Namespaced})
		}
	}
	return g.index
}

func hasVerb(verbs []string, v string) bool {
	if len(verbs) == 0 {
		return true // a fake or an old server that lists none
	}
	for _, x := range verbs {
		if x == v {
			return true
		}
	}
	return false
}

// resolve finds the kind named by a reference: by group and kind, or by
// kind alone, preferring the referrer's group, then its domain. ok is false
// when no kind or several equally likely match.
func (g *Graph) resolve(group, kind string, groupKnown bool, near string) (kindInfo, bool) {
	var found []kindInfo
	for _, k := range g.kinds() {
		if k.GVK.Kind == kind && (!groupKnown || k.GVK.Group == group) {
			found = append(found, k)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	for _, pref := range []func(kindInfo) bool{
		func(k kindInfo) bool { return k.GVK.Group == near },
		func(k kindInfo) bool { return domain(k.GVK.Group) == domain(near) },
	} {
		var m []kindInfo
		for _, k := range found {
			if pref(k) {
				m = append(m, k)
			}
		}
		if len(m) == 1 {
			return m[0], true
		}
	}
	return kindInfo{}, false
}

// resolveResource finds the kind an error message names by its resource,
// singular or plural: in the group given, else in the core group, else
// the one group serving it.
func (g *Graph) resolveResource(res, group string, groupKnown bool) (kindInfo, bool) {
	var found []kindInfo
	for _, k := range g.kinds() {
		if (k.Resource == res || k.Singular == res) && (!groupKnown || k.GVK.Group == group) {
			found = append(found, k)
		}
	}
	for _, k := range found {
		if k.GVK.Group == "" {
			return k, true
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return kindInfo{}, false
}

// related are the kinds that may own-list children of a custom kind: the
// kinds of the groups of its domain (cert-manager.io and
// acme.cert-manager.io; cluster.x-k8s.io and infrastructure.cluster.x-k8s.io).
func (g *Graph) related(group string) []kindInfo {
	var out []kindInfo
	d := domain(group)
	for _, k := range g.kinds() {
		if k.GVK.Group != "" && domain(k.GVK.Group) == d {
			out = append(out, k)
		}
	}
	return out
}

// domain is a group's last two labels: the project that owns it.
func domain(group string) string {
	parts := strings.Split(group, ".")
	if len(parts) <= 2 {
		return group
	}
	return strings.Join(parts[len(parts)-2:], ".")
}

func (k kindInfo) gvr() schema.GroupVersionResource {
	return k.GVK.GroupVersion().WithResource(k.Resource)
}

// get reads one object; nil, nil when it does not exist.
func (g *Graph) get(ctx context.Context, k kindInfo, namespace, name string) (*unstructured.Unstructured, error) {
	if err := g.spend(); err != nil {
		return nil, err
	}
	var r dynamic.ResourceInterface = g.Dynamic.Resource(k.gvr())
	if k.Namespaced {
		r = g.Dynamic.Resource(k.gvr()).Namespace(namespace)
	}
	u, err := r.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return u, err
}

// list reads every object of a kind in a namespace ("" for all, or for a
// cluster-scoped kind), page by page, at most Limits.ListItems: what was
// left is said in cut.
func (g *Graph) list(ctx context.Context, k kindInfo, namespace string) (items []unstructured.Unstructured, cut string, err error) {
	if !k.Namespaced {
		namespace = ""
	}
	id := k.gvr().String() + "/" + namespace
	if items, ok := g.lists[id]; ok {
		return items, g.listed[id], nil
	}
	lim := g.Limits.withDefaults()
	var r dynamic.ResourceInterface = g.Dynamic.Resource(k.gvr())
	if k.Namespaced && namespace != "" {
		r = g.Dynamic.Resource(k.gvr()).Namespace(namespace)
	}
	opts := metav1.ListOptions{Limit: lim.Page}
	for {
		if err := g.spend(); err != nil {
			if len(items) == 0 {
				return nil, "", err
			}
			cut = fmt.Sprintf("%s in %s: only the first %d read (request limit)", k.Resource, orAll(namespace), len(items))
			break
		}
		l, err := r.List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		items = append(items, l.Items...)
		if l.GetContinue() == "" {
			break
		}
		if len(items) >= lim.ListItems {
			cut = fmt.Sprintf("%s in %s: only the first %d read", k.Resource, orAll(namespace), len(items))
			break
		}
		opts.Continue = l.GetContinue()
	}
	if g.lists == nil {
		g.lists, g.listed = map[string][]unstructured.Unstructured{}, map[string]string{}
	}
	g.lists[id], g.listed[id] = items, cut
	return items, cut, nil
}

func orAll(ns string) string {
	if ns == "" {
		return "all namespaces"
	}
	return "namespace " + ns
}
