package kick

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"
)

var (
	widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	widget  = schema.GroupKind{Group: "example.com", Kind: "Widget"}
)

func object(ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// newKicker is a Kicker over fake clients holding default/w1, default/w2 and
// default/locked, whose authorizer refuses patch on "locked" only.
func newKicker(t *testing.T, now time.Time) (*Kicker, *dynamicfake.FakeDynamicClient) {
	t.Helper()
	scheme := runtime.NewScheme()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme,
		map[schema.GroupVersionResource]string{widgets: "WidgetList"},
		object("default", "w1"), object("default", "w2"), object("default", "locked"))
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{widgets.GroupVersion()})
	mapper.Add(widgets.GroupVersion().WithKind("Widget"), meta.RESTScopeNamespace)
	cs := fake.NewClientset()
	cs.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		ra := r.Spec.ResourceAttributes
		if ra.Verb == "patch" && ra.Group == "example.com" && ra.Resource == "widgets" && ra.Name != "locked" {
			r.Status.Allowed = true
		} else {
			r.Status.Reason = "RBAC: no rule allows it"
		}
		return true, r, nil
	})
	return &Kicker{Mapper: mapper, Dynamic: dyn, Reviews: cs.AuthorizationV1().SelfSubjectAccessReviews(),
		Clock: clocktesting.NewFakePassiveClock(now)}, dyn
}

func annotation(t *testing.T, dyn *dynamicfake.FakeDynamicClient, name string) string {
	t.Helper()
	u, err := dyn.Resource(widgets).Namespace("default").Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get %s: %v", name, err)
	}
	return u.GetAnnotations()[Annotation]
}

func TestKickPatchesTheAnnotation(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 123, time.UTC)
	k, dyn := newKicker(t, now)
	res, err := k.Kick(context.Background(), widget, []string{"default/w1", "default/w2"})
	if err != nil {
		t.Fatalf("Kick: %v", err)
	}
	if len(res) != 2 || res[0].Resource != "widgets.example.com" || !res[1].At.Equal(now) {
		t.Errorf("results = %+v, want both widgets.example.com at %v", res, now)
	}
	for _, name := range []string{"w1", "w2"} {
		if got, want := annotation(t, dyn, name), "2026-11-30T10:00:00.000000123Z"; got != want {
			t.Errorf("%s: %s = %q, want %q", name, Annotation, got, want)
		}
	}
}

func TestKickRefusedPatchesNothing(t *testing.T) {
	k, dyn := newKicker(t, time.Now())
	_, err := k.Kick(context.Background(), widget, []string{"default/w1", "default/locked"})
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("err = %v, want a RefusedError", err)
	}
	for _, want := range []string{"you may not patch widgets.example.com default/locked", "RBAC: no rule allows it",
		"a Role in namespace default granting verbs: [patch] on resources: [widgets]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to contain %q", err, want)
		}
	}
	if got := annotation(t, dyn, "w1"); got != "" {
		t.Errorf("w1 was patched (%q) though the kick was refused", got)
	}
}

func TestKickBadInput(t *testing.T) {
	k, _ := newKicker(t, time.Now())
	tests := []struct {
		name string
		gk   schema.GroupKind
		keys []string
		want string
	}{
		{"no keys", widget, nil, "no keys"},
		{"unknown kind", schema.GroupKind{Group: "example.com", Kind: "Gadget"}, []string{"a/b"}, "kind Gadget.example.com"},
		{"a cluster-scoped key for a namespaced kind", widget, []string{"w1"}, `key "w1": widgets.example.com is namespaced, so its keys read NAMESPACE/NAME`},
		{"missing object", widget, []string{"default/gone"}, "kick widgets.example.com default/gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := k.Kick(context.Background(), tt.gk, tt.keys)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
