//go:build e2e

package e2e

import (
	"context"
	"sync"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// access is one request a SubjectAccessReview asks about.
type access struct {
	verb, group, resource, subresource, namespace, name string
	path                                                string // a non-resource URL, instead of a resource
}

func (a access) String() string {
	if a.path != "" {
		return a.verb + " " + a.path
	}
	r := a.resource
	if a.subresource != "" {
		r += "/" + a.subresource
	}
	if a.group != "" {
		r += "." + a.group
	}
	return a.verb + " " + r + " in " + a.namespace + "/" + a.name
}

// testShippedRBAC applies config/rbac and config/samples as they are, binds
// the roles as their comments say, and asks the API server's authorizer
// (SubjectAccessReview) whether each subject may do what its role names,
// and nothing next to it.
func testShippedRBAC(ctx context.Context, t *testing.T, kc *kubectl, admin string, adminCfg *rest.Config) {
	// Some sixty reviews: client-go's default limit (5 a second) would
	// make them take twelve seconds.
	cfg := rest.CopyConfig(adminCfg)
	cfg.QPS, cfg.Burst = 100, 100
	cs := kubernetes.NewForConfigOrDie(cfg)
	kc.ok(t, admin, "apply", "-f", "../../config/rbac", "-f", "../../config/samples")
	bindCluster(ctx, t, cs, "e2e-viewer", "kubectl-backoff-viewer")
	bindCluster(ctx, t, cs, "e2e-operator", "kubectl-backoff-operator")
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-operator-objects", Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "kubectl-backoff-demo-objects"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, Name: "e2e-operator"}},
	}
	if _, err := cs.RbacV1().RoleBindings(ns).Create(ctx, rb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	read := []access{
		{verb: "get", resource: "pods", namespace: ns},
		{verb: "list", resource: "pods", namespace: ns},
		{verb: "create", resource: "pods", subresource: "portforward", namespace: ns, name: podName},
		{verb: "get", resource: "pods", subresource: "log", namespace: ns, name: podName},
		{verb: "get", group: "apps", resource: "deployments", namespace: ns, name: deploymentName},
		{verb: "list", group: "apps", resource: "deployments"}, // why: the status manager's Deployment, in any namespace
		{verb: "list", resource: "events", namespace: ns},
		{verb: "get", path: "/debug/backoff/v1/keys"},
		{verb: "get", path: "/debug/backoff/v1/controllers"},
	}
	forget := access{verb: "post", path: "/debug/backoff/v1/forget"}
	kickDemo := access{verb: "patch", resource: "configmaps", namespace: ns, name: "naive-00000"}
	never := []access{
		{verb: "create", resource: "pods", namespace: ns},
		{verb: "delete", resource: "pods", namespace: ns, name: podName},
		{verb: "create", resource: "pods", subresource: "exec", namespace: ns, name: podName},
		{verb: "get", resource: "secrets", namespace: ns},
		{verb: "update", group: "apps", resource: "deployments", namespace: ns, name: deploymentName},
		{verb: "get", path: "/metrics"},
		{verb: "delete", path: "/debug/backoff/v1/forget"},
		{verb: "patch", resource: "configmaps", namespace: "kube-system", name: "naive-00000"},
		{verb: "update", resource: "configmaps", namespace: ns, name: "naive-00000"},
	}
	demoSA := "system:serviceaccount:demo:kubectl-backoff-demo"
	for _, c := range []struct {
		user        string
		allow, deny []access
	}{
		{"e2e-viewer", read, append([]access{forget, kickDemo}, never...)},
		{"e2e-operator", append(read, forget, kickDemo), never},
		{demoSA, []access{
			{verb: "get", resource: "configmaps", namespace: ns, name: "naive-00000"},
			{verb: "list", resource: "configmaps", namespace: ns},
			{verb: "watch", resource: "configmaps", namespace: ns},
			{verb: "create", resource: "configmaps", namespace: ns},
			{verb: "update", resource: "configmaps", namespace: ns, name: "naive-00000"},
			{verb: "get", resource: "namespaces", namespace: ns, name: ns},
		}, []access{
			{verb: "delete", resource: "configmaps", namespace: ns, name: "naive-00000"},
			{verb: "list", resource: "configmaps", namespace: "kube-system"},
			{verb: "get", resource: "namespaces", namespace: "kube-system", name: "kube-system"},
			{verb: "get", resource: "secrets", namespace: ns},
			{verb: "get", path: "/debug/backoff/v1/keys"},
		}},
	} {
		t.Run(c.user, func(t *testing.T) {
			// The reviews are independent: asked at once, they take one
			// round trip instead of twenty.
			var wg sync.WaitGroup
			check := func(a access, want bool) {
				wg.Go(func() {
					got, err := allowed(ctx, cs, c.user, a)
					switch {
					case err != nil:
						t.Errorf("SubjectAccessReview %s %v: %v", c.user, a, err)
					case got != want && want:
						t.Errorf("%s may not %v; its role names it", c.user, a)
					case got != want:
						t.Errorf("%s may %v; its role does not name it", c.user, a)
					}
				})
			}
			for _, a := range c.allow {
				check(a, true)
			}
			for _, a := range c.deny {
				check(a, false)
			}
			wg.Wait()
		})
	}
}

// bindCluster binds a ClusterRole to a user cluster-wide, as the roles'
// comments show with kubectl create clusterrolebinding.
func bindCluster(ctx context.Context, t *testing.T, cs kubernetes.Interface, user, role string) {
	t.Helper()
	crb := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, Name: user}},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil {
		t.Fatalf("bind %s to %s: %v", user, role, err)
	}
}

// allowed asks the API server whether user may do a.
func allowed(ctx context.Context, cs kubernetes.Interface, user string, a access) (bool, error) {
	spec := authorizationv1.SubjectAccessReviewSpec{User: user, Groups: []string{"system:authenticated"}}
	if a.path != "" {
		spec.NonResourceAttributes = &authorizationv1.NonResourceAttributes{Verb: a.verb, Path: a.path}
	} else {
		spec.ResourceAttributes = &authorizationv1.ResourceAttributes{Verb: a.verb, Group: a.group, Resource: a.resource,
			Subresource: a.subresource, Namespace: a.namespace, Name: a.name}
	}
	r, err := cs.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{Spec: spec}, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	return r.Status.Allowed, nil
}
