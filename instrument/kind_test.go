package instrument

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// widget is a CRD's type as kubebuilder writes one: registered in the
// manager's scheme, not in client-go's.
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (w *widget) DeepCopyObject() runtime.Object { c := *w; return &c }

// TestObjectKind: the kind is Object's in Options.Scheme (client-go's by
// default); a type the scheme does not know — a CRD's, as the README's
// first snippet had it before it passed the manager's scheme — is an error
// that says what to pass (New logs it), not dropped without a word.
func TestObjectKind(t *testing.T) {
	gv := schema.GroupVersion{Group: "example.com", Version: "v1"}
	local := runtime.NewScheme()
	local.AddKnownTypes(gv, &widget{})
	tests := []struct {
		name string
		opts Options
		want *api.GroupVersionKind
		err  string
	}{
		{"a built-in kind", Options{Object: &corev1.ConfigMap{}}, &api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, ""},
		{"a CRD in the manager's scheme", Options{Object: &widget{}, Scheme: local}, &api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "widget"}, ""},
		{"Kind given", Options{Kind: gv.WithKind("Widget")}, &api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, ""},
		{"neither", Options{}, nil, ""},
		{"a CRD without its scheme", Options{Object: &widget{}}, nil,
			`controller "widget": the kind of Options.Object (*instrument.widget) is not in client-go's scheme (Options.Scheme is unset), ` +
				"so kubectl backoff why and kick will not find this controller: pass Options.Scheme (mgr.GetScheme()) or Options.Kind: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveKind("widget", tt.opts)
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("kind %+v, want %+v", got, tt.want)
			}
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)) {
				t.Errorf("error %v, want one beginning %q", err, tt.err)
			}
		})
	}
}
