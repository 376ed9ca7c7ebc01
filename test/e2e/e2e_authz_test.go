//go:build e2e

package e2e

import (
	"context"
	"net"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// testMetricsAuthz reads the endpoint through the metrics server, behind
// controller-runtime's authn/authz filter, with service-account tokens: all
// three may port-forward; reading needs "get" on the non-resource URL, and
// forget needs "post".
func testMetricsAuthz(ctx context.Context, t *testing.T, kc *kubectl, admin *rest.Config, cs kubernetes.Interface, dir string) {
	kubeconfig := func(name string) (string, rbacv1.Subject) {
		token, sub := serviceAccountToken(ctx, t, cs, ns, name)
		return tokenKubeconfig(t, admin, dir, name, token), sub
	}
	none, noneSub := kubeconfig("backoff-none")
	reader, readerSub := kubeconfig("backoff-reader")
	writer, writerSub := kubeconfig("backoff-writer")
	grantRole(ctx, t, cs, ns, "backoff-attach", attachRules(true), noneSub, readerSub, writerSub)
	grantEndpoint(ctx, t, cs, "backoff-read", []string{"get"}, readerSub, writerSub)
	grantEndpoint(ctx, t, cs, "backoff-forget", []string{"post"}, writerSub)

	https := []string{"--scheme", "https", "--port", "metrics"}
	key := ns + "/naive-00002"

	t.Run("no-permission", func(t *testing.T) {
		_, errOut, err := kc.run(t, none, cmd("get", https...)...)
		if err == nil {
			t.Fatal("get without the non-resource URL permission succeeded")
		}
		for _, want := range []string{"403", `may not "get" the non-resource URL`, `nonResourceURLs: ["/debug/backoff/*"]`} {
			if !strings.Contains(errOut, want) {
				t.Errorf("error lacks %q:\n%s", want, errOut)
			}
		}
	})

	t.Run("get", func(t *testing.T) {
		var list inspector.KeyList
		if err := kc.jsonOf(t, &list, reader, cmd("get", append(https, "--controller", "naive", "-o", "json")...)...); err != nil {
			t.Fatal(err)
		}
		if len(list.Items) == 0 {
			t.Fatalf("reader: no naive keys (%d tracked)", list.Total)
		}
	})

	t.Run("forget-needs-post", func(t *testing.T) {
		_, errOut, err := kc.run(t, reader, cmd("forget", append(https, "--controller", "naive", key, "-y")...)...)
		if err == nil {
			t.Fatal("forget with only get succeeded")
		}
		if want := `may not "post" the non-resource URL`; !strings.Contains(errOut, want) {
			t.Errorf("error lacks %q:\n%s", want, errOut)
		}
		var resp api.ForgetResponse
		if err := kc.jsonOf(t, &resp, writer, cmd("forget", append(https, "--controller", "naive", key, "-y", "-o", "json")...)...); err != nil {
			t.Fatal(err)
		}
		if resp.Count != 1 {
			t.Errorf("writer's forget: count %d, want 1", resp.Count)
		}
	})
}

// tcpAddr parses a host:port the test itself chose.
func tcpAddr(s string) net.Addr {
	a, err := net.ResolveTCPAddr("tcp", s)
	if err != nil {
		panic(err)
	}
	return a
}
