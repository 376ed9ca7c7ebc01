package cluster_test

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// client-go's clientset and its fake are Clientsets: callers and tests may
// pass them.
var (
	_ cluster.Clientset = kubernetes.Interface(nil)
	_ cluster.Clientset = (*fake.Clientset)(nil)
)

// TestNewClientset: each group's client reaches the server with client-go's
// default user agent, and all of them share one client-side rate limiter, as
// kubernetes.NewForConfig's do (one --qps budget, not one per group).
func TestNewClientset(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{} // "METHOD path" -> User-Agent
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method+" "+r.URL.Path] = r.UserAgent()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/version":
			_ = json.NewEncoder(w).Encode(map[string]string{"major": "1", "minor": "37", "gitVersion": "v1.37.2"})
		case strings.HasSuffix(r.URL.Path, "/selfsubjectaccessreviews"):
			_ = json.NewEncoder(w).Encode(authorizationv1.SelfSubjectAccessReview{Status: authorizationv1.SubjectAccessReviewStatus{Allowed: true}})
		default:
			_, _ = w.Write([]byte(`{"metadata":{"name":"x"}}`))
		}
	}))
	defer srv.Close()

	cs, err := cluster.NewClientset(&rest.Config{Host: srv.URL, QPS: 7, Burst: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := cs.CoreV1().Pods("ns").Get(ctx, "p", metav1.GetOptions{}); err != nil {
		t.Errorf("core: %v", err)
	}
	if _, err := cs.AppsV1().Deployments("ns").Get(ctx, "d", metav1.GetOptions{}); err != nil {
		t.Errorf("apps: %v", err)
	}
	if r, err := cs.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{}, metav1.CreateOptions{}); err != nil || !r.Status.Allowed {
		t.Errorf("authorization: %v, %+v", err, r)
	}
	if v, err := cs.Discovery().ServerVersion(); err != nil || v.GitVersion != "v1.37.2" {
		t.Errorf("discovery: %v, %+v", err, v)
	}
	want := map[string]string{
		"GET /api/v1/namespaces/ns/pods/p":                            rest.DefaultKubernetesUserAgent(),
		"GET /apis/apps/v1/namespaces/ns/deployments/d":               rest.DefaultKubernetesUserAgent(),
		"POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews": rest.DefaultKubernetesUserAgent(),
		"GET /version": rest.DefaultKubernetesUserAgent(),
	}
	for req, ua := range want {
		if got, ok := seen[req]; !ok || got != ua {
			t.Errorf("%s: seen %t with User-Agent %q, want %q", req, ok, got, ua)
		}
	}

	core := cs.CoreV1().RESTClient().GetRateLimiter()
	if core == nil || core.QPS() != 7 {
		t.Fatalf("core's rate limiter %v, want one of --qps 7", core)
	}
	if cs.AppsV1().RESTClient().GetRateLimiter() != core || cs.AuthorizationV1().RESTClient().GetRateLimiter() != core {
		t.Errorf("the groups' clients have rate limiters of their own; want core's, shared")
	}

	if _, err := cluster.NewClientset(&rest.Config{Host: srv.URL, QPS: 5}); err == nil || !strings.Contains(err.Error(), "burst") {
		t.Errorf("QPS without a burst: error %v, want one naming burst", err)
	}
}

// TestNoFullClientset keeps client-go's full clientset out of the binary: a
// kubernetes.NewForConfig anywhere in the module's non-test code links a
// typed client for every API group (about 8.5 MB of the stripped binary).
// Use cluster.NewClientset, and widen cluster.Clientset if a group is
// missing.
func TestNoFullClientset(t *testing.T) {
	root, err := filepath.Abs("../../..") // internal/inspector/cluster is three below the module root
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root %s: %v", root, err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "k8s.io/client-go/kubernetes" {
				local = "kubernetes"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && strings.HasPrefix(sel.Sel.Name, "New") {
					t.Errorf("%s: %s.%s links every API group's client into the binary; use cluster.NewClientset", fset.Position(sel.Pos()), local, sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
