package demo

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Labels and annotations the demo puts on its ConfigMaps.
const (
	// PartOfLabel marks the demo's objects; in a cluster the controllers watch
	// only ConfigMaps carrying it.
	PartOfLabel = "app.kubernetes.io/part-of"
	// PartOfValue is PartOfLabel's value.
	PartOfValue = "kubectl-backoff-demo"
	// scenarioLabel names the scenario (and controller) an object belongs to.
	scenarioLabel = "demo.kubectl-backoff.io/scenario"

	// generationAnnotation is bumped by a simulated user edit: ConfigMaps have
	// no spec generation, so the demo keeps its own.
	generationAnnotation = "demo.kubectl-backoff.io/generation"
	// observedAnnotation is what the conflicts controller writes back.
	observedAnnotation = "demo.kubectl-backoff.io/observed-generation"
	// otherWriterAnnotation is written by the simulated concurrent writer.
	otherWriterAnnotation = "demo.kubectl-backoff.io/other-writer"
	// conditionAnnotation is the well-behaved controller's Ready condition:
	// ConfigMaps have no status, so it stands in for status.conditions.
	conditionAnnotation = "demo.kubectl-backoff.io/condition"

	// storageClassKey is the demo's "spec.storageClass"; empty is invalid.
	storageClassKey = "storageClass"
)

// objectName is the ConfigMap name of key i of a scenario: outage-00042.
func objectName(scenario string, i int) string {
	return fmt.Sprintf("%s-%05d", scenario, i)
}

// newObject builds one demo ConfigMap.
func newObject(namespace string, sc *scenario, i int) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace,
			Name:      objectName(sc.name, i),
			Labels:    map[string]string{PartOfLabel: PartOfValue, scenarioLabel: sc.name},
		},
		Data: map[string]string{storageClassKey: "standard"},
	}
	if sc.invalid {
		// The user forgot spec.storageClass: no retry will ever fix it.
		cm.Data[storageClassKey] = ""
	}
	if sc.name == conflictsName {
		// Gives the conflicts controller something to write on its first pass.
		cm.Annotations = map[string]string{generationAnnotation: "1"}
	}
	return cm
}

// ensureObjects creates the namespace and whichever demo ConfigMaps are
// missing; existing ones are left as they are, so a rerun against a cluster
// resumes rather than resets. It returns how many it created. An existing
// namespace is only read: in a pod (config/samples) the demo may get its
// namespace but not create namespaces.
func ensureObjects(ctx context.Context, c client.Client, namespace string, counts []int) (int, error) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace, Labels: map[string]string{PartOfLabel: PartOfValue}}}
	switch err := c.Get(ctx, client.ObjectKeyFromObject(ns), &corev1.Namespace{}); {
	case apierrors.IsNotFound(err):
		if err := c.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
			return 0, fmt.Errorf("create namespace %s: %w", namespace, err)
		}
	case err != nil:
		return 0, fmt.Errorf("get namespace %s: %w", namespace, err)
	}
	var existing corev1.ConfigMapList
	if err := c.List(ctx, &existing, client.InNamespace(namespace), client.MatchingLabels{PartOfLabel: PartOfValue}); err != nil {
		return 0, fmt.Errorf("list demo ConfigMaps in %s: %w", namespace, err)
	}
	have := make(map[string]bool, len(existing.Items))
	for i := range existing.Items {
		have[existing.Items[i].Name] = true
	}
	created := 0
	for si := range scenarios {
		for i := range counts[si] {
			cm := newObject(namespace, &scenarios[si], i)
			if have[cm.Name] {
				continue
			}
			if err := c.Create(ctx, cm); err != nil && !apierrors.IsAlreadyExists(err) {
				return created, fmt.Errorf("create ConfigMap %s/%s: %w", namespace, cm.Name, err)
			}
			created++
		}
	}
	return created, nil
}

// Object reads one of the demo's objects as the API server would serve it
// (unstructured, with its kind), from wherever the demo keeps them: its
// in-process store when it runs embedded, the API server otherwise. Only
// ConfigMaps are the demo's; any other kind is not found.
//
// A ConfigMap has no generation and no status, so the demo's controllers
// keep theirs in annotations; Object serves those stand-ins where a custom
// resource carries them (metadata.generation, status.observedGeneration,
// status.conditions), so that a key's detail shows the demo's object as it
// would show a real controller's.
func (d *Demo) Object(ctx context.Context, group, version, kind, namespace, name string) (*unstructured.Unstructured, error) {
	gk := schema.GroupKind{Group: group, Kind: kind}
	if gk != (schema.GroupKind{Kind: "ConfigMap"}) || d.env.client == nil {
		return nil, apierrors.NewNotFound(schema.GroupResource{Group: group, Resource: strings.ToLower(kind)}, name)
	}
	var cm corev1.ConfigMap
	if err := d.env.client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &cm); err != nil {
		return nil, err
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&cm)
	if err != nil {
		return nil, fmt.Errorf("configmap %s/%s: %w", namespace, name, err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	standInStatus(u, cm.Annotations)
	return u, nil
}

// standInStatus writes the demo's annotations where a custom resource keeps
// its generation and status (see Object).
func standInStatus(u *unstructured.Unstructured, ann map[string]string) {
	if g, err := strconv.ParseInt(ann[generationAnnotation], 10, 64); err == nil {
		u.SetGeneration(g)
	}
	status := map[string]any{}
	if og, err := strconv.ParseInt(ann[observedAnnotation], 10, 64); err == nil {
		status["observedGeneration"] = og
	}
	if c, ok := parseCondition(ann[conditionAnnotation]); ok {
		status["conditions"] = []any{c}
	}
	if len(status) > 0 {
		u.Object["status"] = status
	}
}

// parseCondition reads the well-behaved controller's condition annotation,
// "Ready=False reason=InvalidSpec message=…" (as reconcilers.go writes it).
func parseCondition(s string) (map[string]any, bool) {
	head, rest, _ := strings.Cut(s, " ")
	typ, st, ok := strings.Cut(head, "=")
	if !ok || typ == "" {
		return nil, false
	}
	c := map[string]any{"type": typ, "status": st}
	if r, ok := strings.CutPrefix(rest, "reason="); ok {
		reason, msg, _ := strings.Cut(r, " ")
		c["reason"] = reason
		if m, ok := strings.CutPrefix(msg, "message="); ok {
			c["message"] = m
		}
	}
	return c, true
}
