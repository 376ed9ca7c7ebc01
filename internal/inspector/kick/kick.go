package kick

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	authorizationv1client "k8s.io/client-go/kubernetes/typed/authorization/v1"
	"k8s.io/utils/clock"
)

// Annotation is the annotation a kick sets, to the time of the kick.
const Annotation = "kubectl-backoff.io/kick"

// Kicker patches Annotation on the objects behind keys.
type Kicker struct {
	Mapper  meta.RESTMapper
	Dynamic dynamic.Interface
	// Reviews checks, before any patch, that the user may patch each object.
	Reviews authorizationv1client.SelfSubjectAccessReviewInterface
	// Clock stamps the annotation. Defaults to the real clock.
	Clock clock.PassiveClock
}

// Result is one kicked object.
type Result struct {
	Key string
	// Resource is the object's resource as kubectl names it: "widgets.example.com".
	Resource string
	// At is the annotation's value.
	At time.Time
}

// RefusedError says the user may not patch an object: a kick needs the
// patch verb on it.
type RefusedError struct {
	Resource  schema.GroupResource
	Namespace string
	Name      string
	// Reason is what the authorizer said, when it said anything.
	Reason string
}

// Error implements error.
func (e *RefusedError) Error() string {
	obj := e.Name
	if e.Namespace != "" {
		obj = e.Namespace + "/" + e.Name
	}
	msg := fmt.Sprintf("you may not patch %s %s", e.Resource, obj)
	if e.Reason != "" {
		msg += " (" + e.Reason + ")"
	}
	where := "a Role in namespace " + e.Namespace
	if e.Namespace == "" {
		where = "a ClusterRole"
	}
	return fmt.Sprintf("%s: a kick patches an annotation on the object; ask for %s granting verbs: [patch] on resources: [%s] in apiGroups: [%q]",
		msg, where, e.Resource.Resource, e.Resource.Group)
}

// Target is one object to kick: the key a controller gave it, and its kind.
type Target struct {
	Kind schema.GroupKind
	Key  string
}

// Kick checks that every object may be patched, then patches each. Nothing
// is patched if any check fails.
func (k *Kicker) Kick(ctx context.Context, gk schema.GroupKind, keys []string) ([]Result, error) {
	targets := make([]Target, len(keys))
	for i, key := range keys {
		targets[i] = Target{Kind: gk, Key: key}
	}
	return k.KickTargets(ctx, targets)
}

// KickTargets is Kick for keys of several kinds (of several controllers):
// nothing is patched if any check fails.
func (k *Kicker) KickTargets(ctx context.Context, targets []Target) ([]Result, error) {
	if len(targets) == 0 {
		return nil, errors.New("kick: no keys")
	}
	type object struct {
		key, ns, name string
		gvr           schema.GroupVersionResource
		namespaced    bool
	}
	objects := make([]object, len(targets))
	for i, t := range targets {
		m, err := k.Mapper.RESTMapping(t.Kind)
		if err != nil {
			return nil, fmt.Errorf("kind %s: %w", t.Kind, err)
		}
		namespaced := m.Scope.Name() == meta.RESTScopeNameNamespace
		ns, name, ok := strings.Cut(t.Key, "/")
		if !ok {
			ns, name = "", t.Key
		}
		if namespaced != (ns != "") || name == "" {
			return nil, fmt.Errorf("key %q: %s is %s, so its keys read %s", t.Key, m.Resource.GroupResource(), scopeName(namespaced), keyShape(namespaced))
		}
		if err := k.check(ctx, m.Resource, ns, name); err != nil {
			return nil, err
		}
		objects[i] = object{t.Key, ns, name, m.Resource, namespaced}
	}
	now := time.Now()
	if k.Clock != nil {
		now = k.Clock.Now()
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{Annotation: now.UTC().Format(time.RFC3339Nano)}}})
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(objects))
	for _, o := range objects {
		if _, err := k.resource(o.gvr, o.namespaced, o.ns).Patch(ctx, o.name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return out, fmt.Errorf("kick %s %s: %w", o.gvr.GroupResource(), o.key, statusSaid(err, o.gvr.GroupResource(), o.key))
		}
		out = append(out, Result{Key: o.key, Resource: o.gvr.GroupResource().String(), At: now})
	}
	return out, nil
}

func (k *Kicker) resource(gvr schema.GroupVersionResource, namespaced bool, ns string) dynamic.ResourceInterface {
	if namespaced {
		return k.Dynamic.Resource(gvr).Namespace(ns)
	}
	return k.Dynamic.Resource(gvr)
}

// Resolve is which of kinds the object behind key is: those whose scope
// fits the key's shape (NAMESPACE/NAME or NAME) and, when more than one
// does, those of which the cluster has an object so named. It may return
// none (no such object), or several (one of each exists).
func (k *Kicker) Resolve(ctx context.Context, kinds []schema.GroupKind, key string) ([]schema.GroupKind, error) {
	ns, name, namespacedKey := strings.Cut(key, "/")
	if !namespacedKey {
		ns, name = "", key
	}
	type fit struct {
		gk         schema.GroupKind
		gvr        schema.GroupVersionResource
		namespaced bool
	}
	var fits []fit
	for _, gk := range kinds {
		m, err := k.Mapper.RESTMapping(gk)
		if err != nil {
			return nil, fmt.Errorf("kind %s: %w", gk, err)
		}
		if namespaced := m.Scope.Name() == meta.RESTScopeNameNamespace; namespaced == namespacedKey {
			fits = append(fits, fit{gk, m.Resource, namespaced})
		}
	}
	if len(fits) < 2 {
		out := make([]schema.GroupKind, len(fits))
		for i, f := range fits {
			out[i] = f.gk
		}
		return out, nil
	}
	var out []schema.GroupKind
	for _, f := range fits {
		_, err := k.resource(f.gvr, f.namespaced, ns).Get(ctx, name, metav1.GetOptions{})
		switch {
		case err == nil:
			out = append(out, f.gk)
		case !apierrors.IsNotFound(err):
			return nil, fmt.Errorf("is %s a %s: %w", key, f.gk, err)
		}
	}
	return out, nil
}

// statusSaid is err, said in words when the API server's Status carries
// no message (an aggregated API server's, a proxy's): its code and reason,
// and for a 404 that no object is so named. A real kube-apiserver's
// message ("replicasets.apps \"x\" not found") is kept as it is.
func statusSaid(err error, gr schema.GroupResource, key string) error {
	se, ok := errors.AsType[*apierrors.StatusError](err)
	if !ok || se.ErrStatus.Message != "" {
		return err
	}
	st := se.ErrStatus
	if apierrors.IsNotFound(err) {
		return &wordedStatus{fmt.Sprintf("the API server has no %s %s (%d %s): deleted since it failed, or named wrong?", gr, key, st.Code, st.Reason), err}
	}
	return &wordedStatus{fmt.Sprintf("the API server answered %d %s, with no message", st.Code, st.Reason), err}
}

// wordedStatus is an API server's Status error with the words it lacked.
type wordedStatus struct {
	msg string
	err error
}

func (w *wordedStatus) Error() string { return w.msg }
func (w *wordedStatus) Unwrap() error { return w.err }

// check asks the API server whether the user may patch the object.
func (k *Kicker) check(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) error {
	r, err := k.Reviews.Create(ctx, &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "patch", Group: gvr.Group, Resource: gvr.Resource, Namespace: ns, Name: name},
	}}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("checking that you may patch %s %s/%s: %w", gvr.GroupResource(), ns, name, err)
	}
	if !r.Status.Allowed {
		reason := r.Status.Reason
		if reason == "" {
			reason = r.Status.EvaluationError
		}
		return &RefusedError{Resource: gvr.GroupResource(), Namespace: ns, Name: name, Reason: reason}
	}
	return nil
}

func scopeName(namespaced bool) string {
	if namespaced {
		return "namespaced"
	}
	return "cluster-scoped"
}

func keyShape(namespaced bool) string {
	if namespaced {
		return "NAMESPACE/NAME"
	}
	return "NAME"
}
