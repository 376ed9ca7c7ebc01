package repotest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// object is one decoded YAML document.
type object struct {
	file string
	kind string
	meta metav1.ObjectMeta
	obj  any // *rbacv1.ClusterRole, *appsv1.Deployment, ...
}

func (o object) String() string {
	return fmt.Sprintf("%s %s/%s (%s)", o.kind, o.meta.Namespace, o.meta.Name, o.file)
}

// kinds are the types the manifests may hold, by apiVersion and kind.
var kinds = map[string]func() any{
	"rbac.authorization.k8s.io/v1/ClusterRole":        func() any { return new(rbacv1.ClusterRole) },
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding": func() any { return new(rbacv1.ClusterRoleBinding) },
	"rbac.authorization.k8s.io/v1/Role":               func() any { return new(rbacv1.Role) },
	"rbac.authorization.k8s.io/v1/RoleBinding":        func() any { return new(rbacv1.RoleBinding) },
	"v1/Namespace":       func() any { return new(corev1.Namespace) },
	"v1/ServiceAccount":  func() any { return new(corev1.ServiceAccount) },
	"apps/v1/Deployment": func() any { return new(appsv1.Deployment) },
}

// loadManifests decodes every YAML document under config/ into
// its typed API object, strictly: a misspelt or misplaced field is an error,
// as it would be silently dropped by the API server.
func loadManifests(t *testing.T) []object {
	t.Helper()
	var out []object
	err := filepath.WalkDir(configDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		if filepath.Dir(path) == filepath.Join(configDir, "prometheus") {
			return nil // Prometheus rules, not API objects: a module of their own checks them (config/prometheus/rules_test.go)
		}
		objs, err := decodeFile(path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(objs) == 0 {
			return fmt.Errorf("%s: no object", path)
		}
		out = append(out, objs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func decodeFile(path string) ([]object, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []object
	r := utilyaml.NewYAMLReader(bufio.NewReader(f))
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if blank(doc) {
			continue
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		newObj, ok := kinds[tm.APIVersion+"/"+tm.Kind]
		if !ok {
			return nil, fmt.Errorf("document %d: unexpected apiVersion %q kind %q", i, tm.APIVersion, tm.Kind)
		}
		obj := newObj()
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, tm.Kind, err)
		}
		meta := reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta").Interface().(metav1.ObjectMeta)
		out = append(out, object{file: fromRoot(path), kind: tm.Kind, meta: meta, obj: obj})
	}
}

// blank reports whether doc holds only comments and white space.
func blank(doc []byte) bool {
	for line := range bytes.SplitSeq(doc, []byte("\n")) {
		if l := bytes.TrimSpace(line); len(l) > 0 && l[0] != '#' {
			return false
		}
	}
	return true
}

// find returns the object of kind named namespace/name.
func find[T any](t *testing.T, objs []object, kind, namespace, name string) T {
	t.Helper()
	for _, o := range objs {
		if o.kind == kind && o.meta.Namespace == namespace && o.meta.Name == name {
			return o.obj.(T)
		}
	}
	t.Fatalf("no %s %s/%s under config/", kind, namespace, name)
	var zero T
	return zero
}

// TestManifestsDecode: every document is a known kind, names are unique, and
// every binding refers to a role and service accounts that config/ defines.
func TestManifestsDecode(t *testing.T) {
	objs := loadManifests(t)
	seen := map[string]string{}
	for _, o := range objs {
		id := o.kind + " " + o.meta.Namespace + "/" + o.meta.Name
		if prev, dup := seen[id]; dup {
			t.Errorf("%s defined twice: %s and %s", id, prev, o.file)
		}
		seen[id] = o.file
		if o.meta.Name == "" {
			t.Errorf("%s: no name", o)
		}
	}
	defined := func(kind, ns, name string) bool { _, ok := seen[kind+" "+ns+"/"+name]; return ok }
	checkBinding := func(o object, ref rbacv1.RoleRef, subjects []rbacv1.Subject) {
		refNS := o.meta.Namespace
		if ref.Kind == "ClusterRole" {
			refNS = ""
		}
		if ref.APIGroup != rbacv1.GroupName || !defined(ref.Kind, refNS, ref.Name) {
			t.Errorf("%s: roleRef %s %q (group %q) is not defined under config/", o, ref.Kind, ref.Name, ref.APIGroup)
		}
		for _, s := range subjects {
			if s.Kind == rbacv1.ServiceAccountKind && !defined("ServiceAccount", s.Namespace, s.Name) {
				t.Errorf("%s: subject ServiceAccount %s/%s is not defined under config/", o, s.Namespace, s.Name)
			}
		}
	}
	for _, o := range objs {
		switch b := o.obj.(type) {
		case *rbacv1.RoleBinding:
			checkBinding(o, b.RoleRef, b.Subjects)
		case *rbacv1.ClusterRoleBinding:
			checkBinding(o, b.RoleRef, b.Subjects)
		}
	}
}

// rule is a PolicyRule on resources of the core group ("") or another.
func rule(group string, resources, verbs []string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{group}, Resources: resources, Verbs: verbs}
}

// viewerRules are exactly what kubectl-backoff-viewer grants.
var viewerRules = []rbacv1.PolicyRule{
	rule("", []string{"pods"}, []string{"get", "list"}),
	rule("apps", []string{"deployments", "replicasets", "statefulsets"}, []string{"get"}),
	rule("", []string{"pods/portforward"}, []string{"create"}),
	rule("", []string{"events"}, []string{"list"}),
	rule("", []string{"pods/log"}, []string{"get"}),
	rule("apps", []string{"deployments"}, []string{"list"}),
	{NonResourceURLs: []string{"/debug/backoff/*"}, Verbs: []string{"get"}},
}

// TestRoleRules checks the exact rules of every role under config/.
func TestRoleRules(t *testing.T) {
	objs := loadManifests(t)
	operator := append(viewerRules[:len(viewerRules)-1:len(viewerRules)-1],
		rbacv1.PolicyRule{NonResourceURLs: []string{"/debug/backoff/*"}, Verbs: []string{"get", "post"}})
	for _, c := range []struct {
		kind, namespace, name string
		want                  []rbacv1.PolicyRule
	}{
		{"ClusterRole", "", "kubectl-backoff-viewer", viewerRules},
		{"ClusterRole", "", "kubectl-backoff-operator", operator},
		{"Role", "demo", "kubectl-backoff-demo", []rbacv1.PolicyRule{
			rule("", []string{"configmaps"}, []string{"get", "list", "watch", "create", "update"}),
			{APIGroups: []string{""}, Resources: []string{"namespaces"}, ResourceNames: []string{"demo"}, Verbs: []string{"get"}},
			rule("events.k8s.io", []string{"events"}, []string{"create", "patch"}),
		}},
		{"Role", "demo", "kubectl-backoff-demo-objects", []rbacv1.PolicyRule{
			rule("", []string{"configmaps"}, []string{"get", "patch"}),
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []rbacv1.PolicyRule
			switch c.kind {
			case "ClusterRole":
				got = find[*rbacv1.ClusterRole](t, objs, c.kind, c.namespace, c.name).Rules
			default:
				got = find[*rbacv1.Role](t, objs, c.kind, c.namespace, c.name).Rules
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("rules:\n got  %v\n want %v", got, c.want)
			}
		})
	}
	// Every role is one of those: a new one must say what it grants here.
	roles := 0
	for _, o := range objs {
		if o.kind == "ClusterRole" || o.kind == "Role" {
			roles++
		}
	}
	if roles != 4 {
		t.Errorf("config/ defines %d roles, want the 4 whose rules this test checks", roles)
	}
}
