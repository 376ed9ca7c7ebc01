//go:build e2e

package e2e

import (
	"context"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/kubectl-backoff/kubectl-backoff/test/localcluster"
)

// The workload the plugin attaches to: a Deployment whose ReplicaSet owns one
// pod on a kwok node (localcluster.Workload, as hack/try-cluster.sh makes it).
const (
	nodeName       = localcluster.NodeName
	deploymentName = localcluster.DeploymentName
	replicaSetName = localcluster.ReplicaSetName
	podName        = localcluster.PodName
	backoffPort    = localcluster.BackoffPort // the container port named "backoff": the demo's loopback endpoint
	metricsPort    = 8443                     // the container port named "metrics": the widgets manager's metrics server
)

// createWorkload creates the node and the Deployment → ReplicaSet → Pod
// chain (no controller-manager runs: the test writes each level).
func createWorkload(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	w := localcluster.Workload{Namespace: ns, Ports: []corev1.ContainerPort{
		{Name: "backoff", ContainerPort: backoffPort},
		{Name: "metrics", ContainerPort: metricsPort},
	}}
	if err := w.Create(ctx, cs); err != nil {
		t.Fatal(err)
	}
}

// ownerRef makes the named object the controller of another.
func ownerRef(apiVersion, kind, name string, uid types.UID) metav1.OwnerReference {
	return localcluster.OwnerRef(apiVersion, kind, name, uid)
}

// podRunning reports nil once kwok has the pod Running and Ready.
func podRunning(ctx context.Context, cs kubernetes.Interface, ns string) error {
	return localcluster.PodRunning(ctx, cs, ns)
}

// attachRules are what `kubectl backoff` needs in the namespace to find the
// pods and port-forward to them; withPortForward false leaves out the latter.
func attachRules(withPortForward bool) []rbacv1.PolicyRule {
	rules := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments", "replicasets", "statefulsets"}, Verbs: []string{"get"}},
	}
	if withPortForward {
		rules = append(rules, rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods/portforward"}, Verbs: []string{"create"}})
	}
	return rules
}

// grantRole creates a Role with rules and binds it to subjects.
func grantRole(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, rules []rbacv1.PolicyRule, subjects ...rbacv1.Subject) {
	t.Helper()
	if _, err := cs.RbacV1().Roles(ns).Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Rules: rules}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create role %s: %v", name, err)
	}
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   subjects,
	}
	if _, err := cs.RbacV1().RoleBindings(ns).Create(ctx, rb, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create rolebinding %s: %v", name, err)
	}
}

// grantEndpoint lets subjects use verbs on the endpoint's non-resource URLs,
// as the metrics server's authorization filter checks them.
func grantEndpoint(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, verbs []string, subjects ...rbacv1.Subject) {
	t.Helper()
	cr := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Rules:      []rbacv1.PolicyRule{{NonResourceURLs: []string{"/debug/backoff/*"}, Verbs: verbs}},
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create clusterrole %s: %v", name, err)
	}
	crb := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects:   subjects,
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create clusterrolebinding %s: %v", name, err)
	}
}

// serviceAccountToken creates a service account and returns a token for it.
func serviceAccountToken(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) (string, rbacv1.Subject) {
	t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create service account %s: %v", name, err)
	}
	tr, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token for %s: %v", name, err)
	}
	return tr.Status.Token, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: ns}
}
