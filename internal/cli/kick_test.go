package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// kickServer is an API server (httptest) with ConfigMaps, whose authorizer
// allows patch when allow says so. It records the patches it was sent.
type kickServer struct {
	allow   bool
	mu      sync.Mutex
	patches map[string]string // path → body
	reviews []authorizationv1.ResourceAttributes
}

func (k *kickServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	switch {
	case r.URL.Path == "/api":
		_ = enc.Encode(metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}})
	case r.URL.Path == "/apis":
		_ = enc.Encode(metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}})
	case r.URL.Path == "/api/v1":
		_ = enc.Encode(metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList"}, GroupVersion: "v1",
			APIResources: []metav1.APIResource{{Name: "configmaps", Namespaced: true, Kind: "ConfigMap", Verbs: []string{"get", "patch"}}}})
	case r.URL.Path == "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews" && r.Method == http.MethodPost:
		// client-go may send protobuf: decode as the API server would.
		body, _ := io.ReadAll(r.Body)
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
		rev, ok := obj.(*authorizationv1.SelfSubjectAccessReview)
		if err != nil || !ok || rev.Spec.ResourceAttributes == nil {
			http.Error(w, "bad review", http.StatusBadRequest)
			return
		}
		rev.TypeMeta = metav1.TypeMeta{Kind: "SelfSubjectAccessReview", APIVersion: "authorization.k8s.io/v1"}
		k.mu.Lock()
		k.reviews = append(k.reviews, *rev.Spec.ResourceAttributes)
		k.mu.Unlock()
		rev.Status.Allowed = k.allow
		if !k.allow {
			rev.Status.Reason = "no RBAC rule"
		}
		_ = enc.Encode(rev)
	case strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/default/configmaps/") && r.Method == http.MethodPatch:
		body, _ := io.ReadAll(r.Body)
		k.mu.Lock()
		k.patches[r.URL.Path] = string(body)
		k.mu.Unlock()
		_ = enc.Encode(corev1.ConfigMap{TypeMeta: metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: filepath.Base(r.URL.Path)}})
	default:
		http.NotFound(w, r)
	}
}

// kickFlags are ServerFlags in namespace default.
func kickFlags(t *testing.T, url string) *genericclioptions.ConfigFlags {
	t.Helper()
	cf := cli.ServerFlags(t, url)
	*cf.Namespace = "default"
	return cf
}

func TestKick(t *testing.T) {
	for _, allow := range []bool{true, false} {
		ks := &kickServer{allow: allow, patches: map[string]string{}}
		srv := httptest.NewServer(ks)
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		cmd := cli.NewKickCommand(kickFlags(t, srv.URL), streams)
		cmd.SetArgs([]string{"--kind", "ConfigMap", "default/w1", "default/w2"})
		err := cmd.Execute()
		srv.Close()
		if allow {
			if err != nil {
				t.Fatalf("kick: %v (stderr %s)", err, errOut)
			}
			for _, name := range []string{"w1", "w2"} {
				body := ks.patches["/api/v1/namespaces/default/configmaps/"+name]
				if !strings.Contains(body, `"kubectl-backoff.io/kick":"`) {
					t.Errorf("patch of %s = %q, want the kick annotation", name, body)
				}
				if !strings.Contains(out.String(), "configmaps default/"+name+" kicked") {
					t.Errorf("output %q does not report %s", out, name)
				}
			}
			for _, want := range []string{"generation-changed predicate", "failure count is not reset"} {
				if !strings.Contains(errOut.String(), want) {
					t.Errorf("stderr %q lacks %q: kick must say what it cannot do", errOut, want)
				}
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "you may not patch configmaps default/w1 (no RBAC rule)") {
			t.Errorf("refused kick: err = %v, want it to explain the refusal", err)
		}
		if len(ks.patches) != 0 {
			t.Errorf("refused kick patched %v", ks.patches)
		}
		if len(ks.reviews) == 0 || ks.reviews[0].Verb != "patch" || ks.reviews[0].Resource != "configmaps" || ks.reviews[0].Name != "w1" {
			t.Errorf("reviews = %+v, want patch on configmaps default/w1", ks.reviews)
		}
	}
}

func TestKickValidation(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ctrl.log")
	if err := os.WriteFile(file, []byte(realLog(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	// A cluster is configured (kick refuses to start without one), never reached.
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "`+unreachable+`"}}]
contexts: [{name: c, context: {cluster: c}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no key", []string{"deploy/ctrl"}, "kick needs a KEY"},
		{"bad --kind", []string{"--kind", ".example.com", "a/b"}, `--kind ".example.com": want KIND.GROUP`},
		{"a log without the kind", []string{"--from-logs", file, "default/w1"}, `controller "widget" does not say which kind it reconciles: give --kind`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(cli.NewKickCommand, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("kick %s: err = %v, want it to contain %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
}
