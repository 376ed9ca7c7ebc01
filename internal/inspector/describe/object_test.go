package describe

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

var objNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

var (
	widgetGVK = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	gizmoGVK  = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}
)

// objWidget is a Widget whose edit (generation 7) is not yet observed
// (status.observedGeneration 6), being deleted, with two conditions.
func objWidget() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata": map[string]any{
			"namespace": "default", "name": "w1", "uid": "uid-w1", "generation": int64(7),
			"deletionTimestamp": "2026-11-30T09:59:00Z",
			"finalizers":        []any{"example.com/cleanup", "example.com/dns"},
		},
		"status": map[string]any{
			"observedGeneration": int64(6),
			"conditions": []any{
				map[string]any{"type": "Ready", "status": "False", "reason": "DependencyDown",
					"message": "dial tcp 10.0.0.7:443: connect: connection refused", "lastTransitionTime": "2026-11-30T09:40:00Z"},
				"not a condition",
				map[string]any{"type": "Synced", "status": "True"},
			},
		},
	}}
}

// objUTC returns st with every time in UTC, so reflect.DeepEqual can
// compare, and of the verdict only the fields read off the object
// (generation, observedGeneration, conditions): TestStatusOfVerdict pins
// the judgement.
func objUTC(st *objstatus.Object) *objstatus.Object {
	if st == nil {
		return nil
	}
	c := *st
	v := st.Verdict
	c.Verdict, c.SpecChange = objstatus.Verdict{Generation: v.Generation, ObservedGeneration: v.ObservedGeneration, Conditions: slices.Clone(v.Conditions)}, nil
	if c.DeletionTimestamp != nil {
		c.DeletionTimestamp = new(c.DeletionTimestamp.UTC())
	}
	for i := range c.Verdict.Conditions {
		c.Verdict.Conditions[i].LastTransitionTime = c.Verdict.Conditions[i].LastTransitionTime.UTC()
	}
	c.Events = slices.Clone(c.Events)
	for i := range c.Events {
		c.Events[i].LastSeen = c.Events[i].LastSeen.UTC()
		c.Events[i].FirstSeen = c.Events[i].FirstSeen.UTC()
	}
	return &c
}

func objWantWidget() *objstatus.Object {
	return &objstatus.Object{
		Namespace: "default", Name: "w1",
		Verdict: objstatus.Verdict{Generation: 7, ObservedGeneration: new(int64(6)), Conditions: []objstatus.Condition{
			{Type: "Ready", Status: "False", Reason: "DependencyDown", Message: "dial tcp 10.0.0.7:443: connect: connection refused",
				LastTransitionTime: objNow.Add(-20 * time.Minute)},
			{Type: "Synced", Status: "True"},
		}},
		DeletionTimestamp: new(objNow.Add(-time.Minute)),
		Finalizers:        []string{"example.com/cleanup", "example.com/dns"},
	}
}

func TestStatusOf(t *testing.T) {
	bare := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "default", "name": "cm"}}}
	tests := []struct {
		name string
		u    *unstructured.Unstructured
		want *objstatus.Object
	}{
		{name: "every field", u: objWidget(), want: objWantWidget()},
		{name: "no status", u: bare, want: &objstatus.Object{Namespace: "default", Name: "cm"}},
	}
	for _, tt := range tests {
		if got := objUTC(statusOf(tt.u)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: statusOf =\n %+v\nwant\n %+v", tt.name, got, tt.want)
		}
	}
}

// TestStatusOfVerdict: the object section carries the verdict `why` gives
// (objstatus.Judge) and who changed the spec, from managedFields.
func TestStatusOfVerdict(t *testing.T) {
	// Being deleted: kstatus says Terminating before it reads anything else.
	if v := statusOf(objWidget()).Verdict; v.Status != "Terminating" || v.Message != "Resource scheduled for deletion" {
		t.Errorf("deleting widget: verdict %+v, want Terminating (Resource scheduled for deletion)", v)
	}

	// Edited to generation 7 by kubectl at 09:48; its controller, which
	// writes status through the subresource, has observed 6.
	u := objWidget()
	unstructured.RemoveNestedField(u.Object, "metadata", "deletionTimestamp")
	u.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, Time: &metav1.Time{Time: objNow.Add(-12 * time.Minute)},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:size":{}}}`)}},
		{Manager: "widget-controller", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", Time: &metav1.Time{Time: objNow.Add(-time.Minute)},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:observedGeneration":{}}}`)}},
	})
	st := statusOf(u)
	if v := st.Verdict; v.Status != "InProgress" || v.Message != "Widget generation is 7, but latest observed generation is 6" {
		t.Errorf("edited widget: verdict %+v, want InProgress (Widget generation is 7, but latest observed generation is 6)", v)
	}
	if c := st.SpecChange; c == nil || c.Manager != "kubectl-client-side-apply" || !c.Time.Equal(objNow.Add(-12*time.Minute)) {
		t.Errorf("edited widget: spec change %+v, want kubectl-client-side-apply at 09:48", c)
	}
}

// objEvent is an event about w1 seen at objNow-ago, with that time in field
// (lastTimestamp if empty).
func objEvent(ns string, i int, ago time.Duration, field string) *corev1.Event {
	e := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("w1.%d", i)},
		InvolvedObject: corev1.ObjectReference{Kind: "Widget", Namespace: "default", Name: "w1", UID: "uid-w1"},
		Type:           corev1.EventTypeWarning, Reason: fmt.Sprintf("R%d", i), Message: "reconcile failed", Count: int32(i + 1),
	}
	t := objNow.Add(-ago)
	switch field {
	case "eventTime":
		e.EventTime = metav1.NewMicroTime(t)
	case "creationTimestamp":
		e.CreationTimestamp = metav1.NewTime(t)
	default:
		e.LastTimestamp = metav1.NewTime(t)
	}
	return e
}

func objReader(t *testing.T, events ...runtime.Object) *ObjectReader {
	t.Helper()
	gizmo := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Gizmo",
		"metadata": map[string]any{"name": "g1", "generation": int64(2)}}}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(widgetGVK, meta.RESTScopeNamespace)
	mapper.Add(gizmoGVK, meta.RESTScopeRoot)
	r := &ObjectReader{Dynamic: dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), objWidget(), gizmo), Mapper: mapper}
	if events != nil {
		r.Core = fake.NewClientset(events...)
	}
	return r
}

func TestObjectReaderRead(t *testing.T) {
	var events []runtime.Object
	for i := range 12 {
		field := map[int]string{3: "eventTime", 5: "creationTimestamp"}[i]
		events = append(events, objEvent("default", i, time.Duration(i)*time.Minute, field))
	}
	slices.Reverse(events)                                               // the API server's order is not the reader's
	events = append(events, objEvent("elsewhere", 99, -time.Minute, "")) // newest, but in another namespace
	r := objReader(t, events...)
	ctx := context.Background()

	got, err := r.Read(ctx, api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, "default/w1")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	want := objWantWidget()
	want.Kind = "Widget"
	for i := range maxEvents {
		want.Events = append(want.Events, objstatus.Event{Type: corev1.EventTypeWarning, Reason: fmt.Sprintf("R%d", i), Message: "reconcile failed",
			Count: int32(i + 1), LastSeen: objNow.Add(-time.Duration(i) * time.Minute)})
		// An event without firstTimestamp: its one known time is its last.
		want.Events[i].FirstSeen = want.Events[i].LastSeen
	}
	if got := objUTC(got); !reflect.DeepEqual(got, want) {
		t.Errorf("Read =\n %+v\nwant\n %+v", got, want)
	}

	// A cluster-scoped kind, its key a bare name; no clientset, so no events.
	r.Core = nil
	g, err := r.Read(ctx, api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"}, "g1")
	if err != nil {
		t.Fatalf("Read gizmo: %v", err)
	}
	if w := (&objstatus.Object{Kind: "Gizmo", Name: "g1", Verdict: objstatus.Verdict{Generation: 2}}); !reflect.DeepEqual(objUTC(g), w) {
		t.Errorf("Read gizmo = %+v, want %+v", g, w)
	}
}

func TestObjectReaderErrors(t *testing.T) {
	r := objReader(t)
	tests := []struct {
		gvk  api.GroupVersionKind
		key  string
		want string
	}{
		{gvk: api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gadget"}, key: "default/x", want: "kind Gadget.example.com: "},
		{gvk: api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, key: "default/nope", want: "get widget default/nope: "},
		{gvk: api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, key: "other/w1", want: "get widget other/w1: "},
	}
	for _, tt := range tests {
		st, err := r.Read(context.Background(), tt.gvk, tt.key)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || st != nil {
			t.Errorf("Read(%s, %q) = %+v, %v; want no status and an error starting %q", tt.gvk.Kind, tt.key, st, err, tt.want)
		}
	}
}

// TestObjectReaderFetch: with Fetch (an in-process store, the demo's), the
// reader asks it for the key's namespace and name and judges what it
// returns as it judges the API server's answer; its error names the object.
func TestObjectReaderFetch(t *testing.T) {
	var asked []string
	r := &ObjectReader{Fetch: func(_ context.Context, gvk api.GroupVersionKind, ns, name string) (*unstructured.Unstructured, error) {
		asked = append(asked, gvk.Kind+" "+ns+"/"+name)
		if name != "w1" {
			return nil, apierrors.NewNotFound(schema.GroupResource{Group: gvk.Group, Resource: "widgets"}, name)
		}
		return objWidget(), nil
	}}
	gvk := api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	got, err := r.Read(context.Background(), gvk, "default/w1")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	want := objWantWidget()
	want.Kind = "Widget"
	if got := objUTC(got); !reflect.DeepEqual(got, want) {
		t.Errorf("Read =\n %+v\nwant\n %+v", got, want)
	}
	if got.Verdict.Status != "Terminating" {
		t.Errorf("verdict %q, want Terminating (the widget is being deleted)", got.Verdict.Status)
	}
	if _, err := r.Read(context.Background(), gvk, "default/w2"); !apierrors.IsNotFound(err) || !strings.Contains(err.Error(), "widget default/w2") {
		t.Errorf("Read of a missing widget: %v, want NotFound naming widget default/w2", err)
	}
	if fmt.Sprint(asked) != "[Widget default/w1 Widget default/w2]" {
		t.Errorf("Fetch asked for %v", asked)
	}
}
