//go:build e2e

package e2e

import (
	"context"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// A managed control plane as its tenant sees it: the tenant may do
// anything in its namespaces and nothing in
// kube-system, so no kube-controller-manager pod is visible; the
// provider's exported log is the file it has.

// tenantKubeconfig writes the kubeconfig of a ServiceAccount "tenant"
// (its token from the TokenRequest API), allowed everything in namespaces.
func tenantKubeconfig(ctx context.Context, t *testing.T, cs kubernetes.Interface, admin string, namespaces ...string) string {
	t.Helper()
	home := namespaces[0]
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "tenant", Namespace: home}}
	if _, err := cs.CoreV1().ServiceAccounts(home).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, ns := range namespaces {
		// Everything in its namespaces (the built-in "admin" is aggregated
		// by a controller this kube-controller-manager does not run).
		grantRole(ctx, t, cs, ns, "tenant-admin", []rbacv1.PolicyRule{{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}},
			rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "tenant", Namespace: home})
	}
	// What a managed cluster's tenant may read cluster-wide (the objects a
	// claim or a namespace names); never pods outside its namespaces.
	cr := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "tenant-read-cluster"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{"storage.k8s.io"}, Resources: []string{"storageclasses"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{"apiregistration.k8s.io"}, Resources: []string{"apiservices"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}}}}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crb := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "tenant-read-cluster"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: cr.Name},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "tenant", Namespace: home}}}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tenantHome = home
	tr, err := cs.CoreV1().ServiceAccounts(home).CreateToken(ctx, "tenant",
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token of the tenant (the ServiceAccount signing key is envtest's): %v", err)
	}
	base, err := clientcmd.BuildConfigFromFlags("", admin)
	if err != nil {
		t.Fatal(err)
	}
	return tokenKubeconfig(t, base, t.TempDir(), "tenant", tr.Status.Token)
}

// tenantHome is the namespace of the tenant's ServiceAccount.
var tenantHome string

// tenantSees lets the tenant do anything in ns, a namespace created after
// its kubeconfig.
func tenantSees(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	grantRole(ctx, t, cs, ns, "tenant-admin", []rbacv1.PolicyRule{{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}},
		rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "tenant", Namespace: tenantHome})
}

// asker is one way to ask `why … -o json`: as the admin who sees the
// control plane's pod, or as the tenant with the log a file.
type asker struct {
	name   string
	answer func(t *testing.T, args ...string) *why.Answer
}

// hiddenAsker is `why … -o json` as the tenant, kube-controller-manager's
// log given as a file; text is the same in words.
func hiddenAsker(kc *kubectl, tenant, logPath string) (answer func(t *testing.T, args ...string) *why.Answer, text func(t *testing.T, args ...string) string) {
	fromLogs := func(args []string) []string {
		return append(append([]string{"backoff", "why"}, args...), "--from-logs", logPath, "--controller-log", "kube-controller-manager")
	}
	text = func(t *testing.T, args ...string) string {
		t.Helper()
		return kc.ok(t, tenant, fromLogs(args)...)
	}
	return func(t *testing.T, args ...string) *why.Answer {
		t.Helper()
		var a why.Answer
		if err := kc.jsonOf(t, &a, tenant, append(fromLogs(args), "-o", "json")...); err != nil {
			t.Fatal(err)
		}
		if c := a.Controller; c != nil && c.Target == "pod/"+kcmPod {
			t.Fatalf("the tenant found %s: the control plane is not hidden", c.Target)
		}
		return &a
	}, text
}
