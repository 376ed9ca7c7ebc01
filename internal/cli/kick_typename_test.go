package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// TestKickTypeNameHint: `kick configmap/naive-00002 -n demo`, typed after
// `why configmap/naive-00002 -n demo` against hack/try-cluster.sh's
// cluster, failed with "no controller tracks key" and "or give --kind".
// A key that reads as TYPE/NAME of a served resource now gets the kick of
// its object by key; a real key (NAMESPACE/NAME), a cluster-scoped kind
// and other errors are left as they were.
func TestKickTypeNameHint(t *testing.T) {
	m := meta.NewDefaultRESTMapper(nil)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, meta.RESTScopeNamespace)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, meta.RESTScopeRoot)
	m.Add(schema.GroupVersionKind{Group: "cert-manager.io", Version: "v1", Kind: "Certificate"}, meta.RESTScopeNamespace)
	notFound := func(key string) error {
		return fmt.Errorf("%w; or give --kind KIND.GROUP", &inspector.KeyNotFoundError{Key: key, Controllers: []string{"naive"}})
	}
	for _, tt := range []struct {
		err       error
		ns, want  string
		unchanged bool
	}{
		{err: notFound("configmap/naive-00002"), ns: "demo", want: "kubectl backoff kick --kind ConfigMap demo/naive-00002"},
		{err: notFound("certificates/web-tls"), ns: "", want: "kubectl backoff kick --kind Certificate.cert-manager.io default/web-tls"},
		{err: notFound("namespace/stuck"), ns: "demo", want: "kubectl backoff kick --kind Namespace stuck"},
		{err: notFound("demo/naive-00002"), ns: "demo", unchanged: true},
		{err: notFound("naive-00002"), ns: "demo", unchanged: true},
		{err: errors.New("configmap/naive-00002: forbidden"), ns: "demo", unchanged: true},
	} {
		got := withTypeNameHint(tt.err, m, tt.ns)
		switch {
		case tt.unchanged && got != tt.err:
			t.Errorf("%v: became %v, want it unchanged", tt.err, got)
		case !tt.unchanged && !strings.HasSuffix(got.Error(), tt.want):
			t.Errorf("%v: %v, want it to end with %q", tt.err, got, tt.want)
		case !tt.unchanged && !errors.Is(got, tt.err):
			t.Errorf("%v: the hint does not wrap the error", tt.err)
		}
	}
}
