package why

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ref is an object another names: a dependency in its spec, an entry of its
// inventory, an object a condition names.
type ref struct {
	Group      string
	GroupKnown bool
	Kind       string
	Namespace  string
	Name       string
	// Via says where the reference is ("spec.chart.spec.sourceRef").
	Via string
	// Child is set for what the object lists as its own (an inventory,
	// composed resources): below it, as its children are.
	Child bool
	// Resource names the kind by its resource instead (singular or plural,
	// as an apimachinery error does); Message is the failure message that
	// named the object (messageRefs).
	Resource string
	Message  string
	// Webhook says Name is an admission webhook's, found in the webhook
	// configuration that holds it (followWebhook).
	Webhook bool
}

// defaultKinds are the kinds a reference names by its field alone, as the
// projects' APIs default them (cert-manager's issuerRef.kind defaults to
// Issuer; Crossplane's compositionRef names a Composition).
var defaultKinds = map[string]schema.GroupKind{
	"issuerRef":              {Group: "cert-manager.io", Kind: "Issuer"},
	"compositionRef":         {Group: "apiextensions.crossplane.io", Kind: "Composition"},
	"compositionRevisionRef": {Group: "apiextensions.crossplane.io", Kind: "CompositionRevision"},
}

// upward are references to the object's parent, not its dependencies.
var upward = map[string]bool{"claimRef": true, "ownerRef": true, "parentRef": true, "parentRefs": true}

// childLists are the references an object makes to what it creates itself
// (Crossplane's composed resources).
var childLists = map[string]bool{"resourceRefs": true, "resourceRef": true}

// maxRefDepth bounds the walk into a spec.
const maxRefDepth = 8

// refsOf finds the objects u names: every `*Ref`/`*Refs` of its spec with a
// name (and a kind, or one its field implies), `dependsOn` (Flux: the same
// kind unless it says), Flux's status.helmChart and status.inventory, Argo
// CD's status.resources, and the group/versions a condition says discovery
// failed for (served by an APIService).
func refsOf(u *unstructured.Unstructured, conds []Condition) []ref {
	gvk := u.GroupVersionKind()
	var out []ref
	var chart *ref
	if s, ok, _ := unstructured.NestedString(u.Object, "status", "helmChart"); ok && gvk.Group == "helm.toolkit.fluxcd.io" {
		if ns, name, found := strings.Cut(s, "/"); found {
			chart = &ref{Group: "source.toolkit.fluxcd.io", GroupKnown: true, Kind: "HelmChart", Namespace: ns, Name: name, Via: "status.helmChart"}
		}
	}
	if spec, ok := u.Object["spec"].(map[string]any); ok {
		walkRefs(spec, "spec", 0, gvk.GroupKind(), u.GetNamespace(), &out)
	}
	if chart != nil {
		// A HelmRelease's spec.chart.spec is the template of the HelmChart it
		// creates: its sourceRef is the chart's dependency, not the release's.
		out = slices.DeleteFunc(out, func(r ref) bool { return strings.HasPrefix(r.Via, "spec.chart.spec.") })
		out = append(out, *chart)
	}
	// Cluster API's templates are copied, not waited for (capi.go).
	out = slices.DeleteFunc(out, func(r ref) bool { return capiTemplate(gvk.Group, r) })
	out = append(out, inventory(u)...)
	out = append(out, argoResources(u)...)
	out = append(out, conditionRefs(conds)...)
	return out
}

func walkRefs(m map[string]any, path string, depth int, self schema.GroupKind, namespace string, out *[]ref) {
	if depth > maxRefDepth {
		return
	}
	// Sorted: the chain's order is the same on every walk.
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		p := path + "." + k
		switch val := v.(type) {
		case map[string]any:
			if strings.HasSuffix(k, "Ref") && !upward[k] {
				if r, ok := refFrom(val, k, p, self, namespace); ok {
					*out = append(*out, r)
					continue
				}
			}
			walkRefs(val, p, depth+1, self, namespace, out)
		case []any:
			named := (strings.HasSuffix(k, "Refs") && !upward[k]) || k == "dependsOn"
			for _, item := range val {
				im, ok := item.(map[string]any)
				if !ok {
					continue
				}
				if named {
					if r, ok := refFrom(im, k, p, self, namespace); ok {
						*out = append(*out, r)
						continue
					}
				}
				walkRefs(im, p, depth+1, self, namespace, out)
			}
		}
	}
}

// refFrom reads one reference: name, and kind with apiVersion, apiGroup or
// group; the field's default kind; dependsOn's own kind.
func refFrom(m map[string]any, field, path string, self schema.GroupKind, namespace string) (ref, bool) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	r := ref{Kind: str("kind"), Name: str("name"), Namespace: str("namespace"), Via: path, Child: childLists[field]}
	if r.Name == "" {
		return ref{}, false
	}
	switch {
	case str("apiVersion") != "":
		r.Group, r.GroupKnown = schema.FromAPIVersionAndKind(str("apiVersion"), "").Group, true
	case str("apiGroup") != "":
		r.Group, r.GroupKnown = str("apiGroup"), true
	case str("group") != "":
		r.Group, r.GroupKnown = str("group"), true
	}
	if d, ok := defaultKinds[field]; ok {
		if r.Kind == "" {
			r.Kind = d.Kind
		}
		if !r.GroupKnown {
			r.Group, r.GroupKnown = d.Group, true
		}
	}
	if field == "dependsOn" && r.Kind == "" {
		r.Kind, r.Group, r.GroupKnown = self.Kind, self.Group, true
	}
	if r.Kind == "" {
		return ref{}, false // a secretRef: a name without a kind
	}
	if r.Namespace == "" {
		r.Namespace = namespace
	}
	return r, true
}

// inventory reads Flux's status.inventory.entries: id NAMESPACE_NAME_GROUP_KIND.
func inventory(u *unstructured.Unstructured) []ref {
	entries, _, _ := unstructured.NestedSlice(u.Object, "status", "inventory", "entries")
	var out []ref
	for _, e := range entries {
		m, _ := e.(map[string]any)
		id, _ := m["id"].(string)
		parts := strings.Split(id, "_")
		if len(parts) != 4 {
			continue
		}
		out = append(out, ref{Namespace: parts[0], Name: parts[1], Group: parts[2], GroupKnown: true, Kind: parts[3], Via: "status.inventory", Child: true})
	}
	return out
}

// argoResources reads an Argo CD Application's status.resources.
func argoResources(u *unstructured.Unstructured) []ref {
	if u.GroupVersionKind().Group != "argoproj.io" {
		return nil
	}
	res, _, _ := unstructured.NestedSlice(u.Object, "status", "resources")
	var out []ref
	for _, e := range res {
		m, _ := e.(map[string]any)
		str := func(k string) string { s, _ := m[k].(string); return s }
		if str("kind") == "" || str("name") == "" {
			continue
		}
		out = append(out, ref{Group: str("group"), GroupKnown: true, Kind: str("kind"), Namespace: str("namespace"), Name: str("name"), Via: "status.resources", Child: true})
	}
	return out
}

// staleGV finds the group/versions a discovery failure names: the
// namespace controller's "unable to retrieve the complete list of server
// APIs: broken.example.com/v1beta1: stale GroupVersion discovery: …".
var staleGV = regexp.MustCompile(`\b([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+)/(v[0-9]+((alpha|beta)[0-9]+)?)\b`)

// conditionRefs are the APIServices a failing condition's message names.
func conditionRefs(conds []Condition) []ref {
	var out []ref
	seen := map[string]bool{}
	for _, c := range conds {
		if c.Status != "True" || !strings.Contains(c.Type, "Discovery") {
			continue
		}
		for _, m := range staleGV.FindAllStringSubmatch(c.Message, -1) {
			name := m[5] + "." + m[1] // APIService names: VERSION.GROUP
			if seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, ref{Group: "apiregistration.k8s.io", GroupKnown: true, Kind: "APIService", Name: name,
				Via: fmt.Sprintf("condition %s names %s/%s", c.Type, m[1], m[5])})
		}
	}
	return out
}
