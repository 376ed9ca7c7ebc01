package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDescribeAddrReadsTheObject: a controller run with go run is reached
// with --addr, and its objects are in kubeconfig's cluster: describe reads
// the object behind the key there. The API server is a stand-in serving
// discovery and the one ConfigMap.
func TestDescribeAddrReadsTheObject(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	ep := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(ep.Close)
	p := instrument.New("configmap", instrument.Options{Registry: reg, Object: &corev1.ConfigMap{}, DisableMetrics: true})
	rl := p.RateLimiter(nil)
	req := reconcile.Request{}
	req.Namespace, req.Name = "widgets", "down-1"
	rec := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("eu region unavailable")
	}))
	_, _ = rec.Reconcile(context.Background(), req)
	rl.When(req)

	cm := corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "widgets", Name: "down-1", UID: "u-1", ResourceVersion: "7"}}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var body any
		switch {
		case r.URL.Path == "/api":
			body = metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}}
		case r.URL.Path == "/apis":
			body = metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
		case r.URL.Path == "/api/v1":
			body = metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList"}, GroupVersion: "v1", APIResources: []metav1.APIResource{
				{Name: "configmaps", Namespaced: true, Kind: "ConfigMap", Verbs: metav1.Verbs{"get", "list"}},
				{Name: "events", Namespaced: true, Kind: "Event", Verbs: metav1.Verbs{"get", "list"}},
			}}
		case r.URL.Path == "/api/v1/namespaces/widgets/configmaps/down-1":
			body = cm
		case strings.HasSuffix(r.URL.Path, "/events"):
			body = corev1.EventList{TypeMeta: metav1.TypeMeta{Kind: "EventList", APIVersion: "v1"}}
		default:
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(api.Close)

	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cf := genericclioptions.NewConfigFlags(true)
	cf.APIServer = &api.URL // kubectl's --server, a flag of the root command
	cmd := cli.NewDescribeCommand(cf, streams)
	cmd.SetArgs([]string{"--addr", ep.URL, "widgets/down-1"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v", err)
	}
	if s := out.String(); strings.Contains(s, "not read") || !strings.Contains(s, "Object:") {
		t.Errorf("describe --addr with a cluster did not read the object:\n%s", s)
	}
}
