package cli_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDescribeAddrReadsTheObject: a controller run with go run is reached
// with --addr, and its objects are in kubeconfig's cluster: describe reads
// the object behind the key there. The API server is a stand-in serving
// discovery and the one ConfigMap (ConfigMapServer).
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

	api := cli.ConfigMapServer(t, "down-1")

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
