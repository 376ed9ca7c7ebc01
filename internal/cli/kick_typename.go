package cli

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// why takes an object as TYPE/NAME; kick takes the controller's keys,
// NAMESPACE/NAME. `kick configmap/web -n team` after `why configmap/web -n
// team` failed with "no controller tracks key "configmap/web"" and a hint
// to add --kind, not the command that kicks it.

// withTypeNameHint adds to err, when no controller tracks a key that reads
// as TYPE/NAME of a resource the cluster serves, the kick of that object by
// its key: kubectl backoff kick --kind ConfigMap team/web. namespace is the
// one -n (or the kubeconfig) names.
func withTypeNameHint(err error, mapper meta.RESTMapper, namespace string) error {
	nf, ok := errors.AsType[*inspector.KeyNotFoundError](err)
	if !ok || mapper == nil {
		return err
	}
	typ, name, ok := strings.Cut(nf.Key, "/")
	if !ok || typ == "" || name == "" || strings.Contains(name, "/") {
		return err
	}
	gvk, kerr := mapper.KindFor(schema.GroupVersionResource{Resource: strings.ToLower(typ)})
	if kerr != nil {
		return err
	}
	mapping, merr := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if merr != nil {
		return err
	}
	kind := gvk.Kind
	if gvk.Group != "" {
		kind += "." + gvk.Group
	}
	key := name
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if namespace == "" {
			namespace = "default"
		}
		key = namespace + "/" + name
	}
	return fmt.Errorf("%w; %q reads as TYPE/NAME, as why takes an object; kick takes the controller's keys, NAMESPACE/NAME: kubectl backoff kick --kind %s %s",
		err, nf.Key, kind, explain.ShellQuote(key))
}
