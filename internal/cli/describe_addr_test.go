package cli_test

import (
	"io"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestDescribeAddrReadsTheObject: a controller run with go run is reached
// with --addr, and its objects are in kubeconfig's cluster: describe reads
// the object behind the key there. The API server is a stand-in serving
// discovery and the one ConfigMap (ConfigMapServer).
func TestDescribeAddrReadsTheObject(t *testing.T) {
	ep := cli.FailingEndpoint(t, nil)

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
	if s := out.String(); strings.Contains(s, "not read:") || !strings.Contains(s, "Object:") {
		t.Errorf("describe --addr with a cluster did not read the object:\n%s", s)
	}
}
