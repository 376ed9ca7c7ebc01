package why

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// Limits bound a chain's walk; what a limit cut is said in Chain.Cut.
type Limits struct {
	// Depth is how many steps below the object are followed. Defaults to 5.
	Depth int
	// Objects is how many objects are read in all. Defaults to 40.
	Objects int
	// Children is how many children of one object are kept, those not
	// Current first. Defaults to 10.
	Children int
	// Timeout bounds the whole walk. Defaults to 15s.
	Timeout time.Duration
	// Page is the page size of a list; ListItems how many items of one kind
	// in one namespace are read. Default to 250 and 2000.
	Page      int64
	ListItems int
	// Requests is how many API requests (a get, a page of a list) one walk
	// makes; discovery, read once per Graph, is not counted. Defaults to
	// 200: the objects' gets and a list per kind and namespace, with room.
	Requests int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.Depth, 5)
	def(&l.Objects, 40)
	def(&l.Children, 10)
	def(&l.ListItems, 2000)
	def(&l.Requests, 200)
	if l.Timeout <= 0 {
		l.Timeout = 15 * time.Second
	}
	if l.Page <= 0 {
		l.Page = 250
	}
	return l
}

// Node is one object of the chain, judged by objstatus.
type Node struct {
	Object Object `json:"object"`
	// Via is how its parent reaches it: "spec.sourceRef", "owner reference",
	// "status.inventory", "condition NamespaceDeletionDiscoveryFailure names …".
	Via string `json:"via,omitempty"`
	// Status is the verdict's, or NotFound for a reference to nothing.
	Status string `json:"status"`
	// Line is why, in one line: the deciding condition, the verdict's
	// message, a pod's state.
	Line string `json:"line"`
	// Blocker marks a node not Current whose own dependencies are all Current.
	Blocker bool `json:"blocker,omitempty"`
	// RetryWait marks a node not a blocker (something below it is not
	// Current either) that waits on its controller's next retry: a
	// failure of its named an object the user has changed since
	// (retrywait.go).
	RetryWait bool    `json:"retryWait,omitempty"`
	Below     []*Node `json:"below,omitempty"`
	// Omitted counts the Current children left out (Limits.Children).
	Omitted int `json:"omitted,omitempty"`
	// Changed is when an object a failure's message names last changed
	// (changedAt): the user's change the controller may not have seen yet.
	Changed *Change `json:"changed,omitempty"`
	// ChangedObject is what changed when it is not the node itself: the
	// Service a webhook calls, created after the failure found it missing.
	ChangedObject *Object `json:"changedObject,omitempty"`
	// Named marks an object reached through a failure's message (the
	// quota, the ServiceAccount it names): the user's to change.
	Named bool `json:"named,omitempty"`
	// Seen marks an object reached a second time: it is shown where it is
	// first reached, and here only counts for whether its parent is blocked.
	Seen bool `json:"seen,omitempty"`

	u *unstructured.Unstructured
}

// NotFound is a node's status when the object it stands for does not exist.
const NotFound = "NotFound"

// Chain is the object and what it waits for.
type Chain struct {
	Root *Node `json:"root"`
	// Cut says what a limit left out, or what could not be read.
	Cut []string `json:"cut,omitempty"`
}

// walker is one walk: the objects seen, the count, the cut.
type walker struct {
	g     *Graph
	judge func(u *unstructured.Unstructured, resource string) Verdict
	lim   Limits
	seen  map[string]*Node
	read  int
	cut   []string
}

// Walk follows the chain from u: its dependencies, its children (owner
// references in the kinds that can own them, and what it lists itself),
// pods with their containers' states, the objects a condition names; each
// node judged; the blockers marked.
func (g *Graph) Walk(ctx context.Context, u *unstructured.Unstructured, judge func(u *unstructured.Unstructured, resource string) Verdict) *Chain {
	lim := g.Limits.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	g.lists, g.listed, g.requests = nil, nil, 0 // a walk reads the cluster as it is now
	w := &walker{g: g, judge: judge, lim: lim, seen: map[string]*Node{}}
	root := w.node(ctx, u, "", "", 0)
	markBlockers(root)
	return &Chain{Root: root, Cut: w.cut}
}

func (w *walker) addCut(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !slices.Contains(w.cut, s) {
		w.cut = append(w.cut, s)
	}
}

func nodeID(u *unstructured.Unstructured) string {
	if uid := u.GetUID(); uid != "" {
		return string(uid)
	}
	gvk := u.GroupVersionKind()
	return gvk.GroupKind().String() + "/" + u.GetNamespace() + "/" + u.GetName()
}

// node judges u and walks below it.
func (w *walker) node(ctx context.Context, u *unstructured.Unstructured, resource, via string, depth int) *Node {
	w.read++
	v := w.judge(u, resource)
	n := &Node{Object: objectOf(u, resource), Via: via, Status: v.Status, Line: lineOf(u, v), u: u}
	w.seen[nodeID(u)] = n
	if depth >= w.lim.Depth {
		if len(refsOf(u, v.Conditions))+len(messageRefs(u, v)) > 0 || objstatus.Builtin(u.GroupVersionKind().GroupKind()) && childKinds[u.GroupVersionKind().GroupKind()] != nil {
			w.addCut("depth %d reached at %s: what it waits for was not read", w.lim.Depth, n.Object.Ref())
		}
		return n
	}
	for _, r := range refsOf(u, v.Conditions) {
		if c := w.follow(ctx, r, u, depth); c != nil {
			n.Below = append(n.Below, c)
		}
	}
	n.Below = append(n.Below, w.children(ctx, u, depth)...)
	// After the children: a Deployment's ReplicaFailure is its ReplicaSet's,
	// copied; the quota it names hangs under the ReplicaSet that was refused.
	for _, r := range messageRefs(u, v) {
		if c := w.follow(ctx, r, u, depth); c != nil {
			n.Below = append(n.Below, c)
		}
	}
	capiBootstrapFirst(u, n)
	return n
}

// follow reads the object r names.
func (w *walker) follow(ctx context.Context, r ref, from *unstructured.Unstructured, depth int) *Node {
	if err := ctx.Err(); err != nil {
		w.addCut("the walk's deadline (%v) passed: the rest was not read", w.lim.Timeout)
		return nil
	}
	if r.Webhook {
		return w.followWebhook(ctx, r, depth)
	}
	var k kindInfo
	var ok bool
	if r.Resource != "" {
		k, ok = w.g.resolveResource(r.Resource, r.Group, r.GroupKnown)
	} else {
		k, ok = w.g.resolve(r.Group, r.Kind, r.GroupKnown, from.GroupVersionKind().Group)
	}
	if !ok {
		w.addCut("%s in %s (%s): its kind is not served by the API server, or is ambiguous", r, orAll(r.Namespace), r.Via)
		return nil
	}
	if w.read >= w.lim.Objects {
		w.addCut("object limit (%d) reached: %s %s and others not read", w.lim.Objects, r.Kind, r.Name)
		return nil
	}
	ns := r.Namespace
	if !k.Namespaced {
		ns = ""
	}
	missing := "missing:" + k.GVK.GroupKind().String() + "/" + ns + "/" + r.Name
	if first := w.seen[missing]; first != nil {
		if r.fromMessage() {
			return nil // named again by a copy of the same message
		}
		return w.again(first, r.Via)
	}
	u, err := w.g.get(ctx, k, ns, r.Name)
	switch {
	case errors.Is(err, errRequests):
		w.addCut("request limit (%d) reached: %s %s and others not read", w.lim.Requests, r.Kind, r.Name)
		return nil
	case err != nil:
		w.addCut("%s %s could not be read: %v", strings.ToLower(k.GVK.Kind), r.Name, shortErr(err))
		return nil
	case u == nil:
		w.read++
		obj := Object{APIVersion: k.GVK.GroupVersion().String(), Kind: k.GVK.Kind, Resource: k.Resource, Namespace: ns, Name: r.Name, Key: r.Name}
		if ns != "" {
			obj.Key = ns + "/" + r.Name
		}
		n := &Node{Object: obj, Via: r.Via, Status: NotFound, Line: fmt.Sprintf("%s names it, and it does not exist", r.Via), Named: r.fromMessage()}
		w.seen[missing] = n
		return n
	case w.seen[nodeID(u)] != nil && r.fromMessage():
		return nil // named again by a copy of the same message
	case w.seen[nodeID(u)] != nil:
		return w.again(w.seen[nodeID(u)], r.Via) // a cycle, or an object reached twice
	}
	n := w.node(ctx, u, k.Resource, r.Via, depth+1)
	refused(n, u, r)
	if r.fromMessage() {
		n.Changed, n.Named = changedAt(u), true
	}
	return n
}

// again is an object reached a second time, by via.
func (w *walker) again(first *Node, via string) *Node {
	return &Node{Object: first.Object, Via: via, Status: first.Status, Line: "shown above", Seen: true}
}

// childKinds are the kinds a built-in's controller creates, owned by it.
var childKinds = map[schema.GroupKind][]schema.GroupKind{
	{Group: "apps", Kind: "Deployment"}:  {{Group: "apps", Kind: "ReplicaSet"}},
	{Group: "apps", Kind: "ReplicaSet"}:  {{Kind: "Pod"}},
	{Group: "apps", Kind: "StatefulSet"}: {{Kind: "Pod"}},
	{Group: "apps", Kind: "DaemonSet"}:   {{Kind: "Pod"}},
	{Group: "batch", Kind: "Job"}:        {{Kind: "Pod"}},
	{Group: "batch", Kind: "CronJob"}:    {{Group: "batch", Kind: "Job"}},
	{Kind: "ReplicationController"}:      {{Kind: "Pod"}},
}

// children are the objects whose ownerReferences name u: for a built-in in
// the kinds its controller creates, for a custom kind in its domain's
// kinds; those not Current first, at most Limits.Children.
func (w *walker) children(ctx context.Context, u *unstructured.Unstructured, depth int) []*Node {
	gk := u.GroupVersionKind().GroupKind()
	var kinds []kindInfo
	if objstatus.Builtin(gk) {
		for _, c := range childKinds[gk] {
			if k, ok := w.g.resolve(c.Group, c.Kind, true, ""); ok {
				kinds = append(kinds, k)
			}
		}
	} else {
		kinds = w.g.related(gk.Group)
	}
	uid := u.GetUID()
	if uid == "" {
		return nil
	}
	var found []*unstructured.Unstructured
	var resources, vias []string
	for _, k := range kinds {
		if u.GetNamespace() == "" && k.Namespaced {
			continue // a cluster-scoped owner: its namespaced children would cost a cluster-wide list per kind
		}
		if err := ctx.Err(); err != nil {
			w.addCut("the walk's deadline (%v) passed: the rest was not read", w.lim.Timeout)
			break
		}
		items, cut, err := w.g.list(ctx, k, u.GetNamespace())
		if errors.Is(err, errRequests) {
			w.addCut("request limit (%d) reached: %s in %s and others not listed", w.lim.Requests, k.Resource, orAll(u.GetNamespace()))
			break
		}
		if err != nil {
			if !errors.Is(err, context.DeadlineExceeded) {
				w.addCut("%s in %s could not be listed: %v", k.Resource, orAll(u.GetNamespace()), shortErr(err))
			}
			continue
		}
		if cut != "" {
			w.addCut("%s", cut)
		}
		for i := range items {
			if w.seen[nodeID(&items[i])] != nil {
				continue
			}
			via := ""
			switch {
			case slices.ContainsFunc(items[i].GetOwnerReferences(), func(o metav1OwnerRef) bool { return o.UID == uid }):
				via = "owner reference"
			case capiLabelled(u, &items[i]):
				via = "label " + capiLabel
			default:
				continue
			}
			found = append(found, &items[i])
			resources, vias = append(resources, k.Resource), append(vias, via)
		}
	}
	var nodes []*Node
	for i, c := range found {
		if w.read >= w.lim.Objects {
			w.addCut("object limit (%d) reached: %d children of %s not read", w.lim.Objects, len(found)-i, objectOf(u, "").Ref())
			break
		}
		nodes = append(nodes, w.node(ctx, c, resources[i], vias[i], depth+1))
	}
	// Those not Current first; the Current beyond the limit are counted, not kept.
	slices.SortStableFunc(nodes, func(a, b *Node) int { return boolCmp(a.Status == Current, b.Status == Current) })
	if len(nodes) > w.lim.Children {
		kept := nodes[:w.lim.Children]
		omitted := 0
		for _, n := range nodes[w.lim.Children:] {
			if n.Status != Current {
				kept = append(kept, n)
				continue
			}
			omitted++
		}
		if omitted > 0 {
			kept = append(kept, &Node{Object: Object{Kind: "…"}, Status: Current, Line: fmt.Sprintf("%d more children, Current", omitted), Omitted: omitted})
		}
		nodes = kept
	}
	return nodes
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
