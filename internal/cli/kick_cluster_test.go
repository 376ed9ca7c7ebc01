package cli_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestKickSaysItNeedsTheCluster: without a kubeconfig, kick says first, in
// one sentence, that it patches objects in their cluster; it does not ask
// for --controller first, nor fail on client-go's localhost:8080.
func TestKickSaysItNeedsTheCluster(t *testing.T) {
	addr := diagnosisEndpoint(t) // two controllers: --controller would be asked for
	t.Setenv("KUBECONFIG", "/nonexistent")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	const want = "kick needs access to the cluster the objects live in: it patches them there, so that the controller's watch sees a change; " +
		"no cluster is configured: pass --kubeconfig/--context"
	for _, args := range [][]string{
		{"--addr", addr, "demo/n-1"},
		{"--addr", addr, "--controller", "naive", "demo/n-1"},
		{"--kind", "ConfigMap", "demo/n-1"},
		{"deploy/ctrl", "demo/n-1"},
	} {
		err := run(cli.NewKickCommand, genericiooptions.NewTestIOStreamsDiscard(), args...)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("kick %v: error = %v, want one line beginning %q", args, err, want)
		}
	}
}

// TestKickUnreachableClusterLogsNothing: client-go's discovery logs to klog
// when the API server does not answer; the command's error is the only
// thing on stderr.
func TestKickUnreachableClusterLogsNothing(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w // klog writes to os.Stderr itself, not to the command's streams
	defer func() { os.Stderr = stderr }()
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	root := cli.NewRootCommand(streams)
	root.SetArgs([]string{"kick", "--server", unreachable, "--kind", "ConfigMap", "demo/n-1"})
	runErr := root.Execute()
	os.Stderr = stderr
	w.Close()
	logged, _ := io.ReadAll(r)
	if runErr == nil {
		t.Fatal("kick against an unreachable API server succeeded")
	}
	if len(logged) > 0 || errOut.Len() > 0 {
		t.Errorf("kick against an unreachable API server wrote on stderr %q%q; want only its error (%v), returned", logged, errOut, runErr)
	}
	if want := "cannot reach the API server at " + unreachable; !strings.HasPrefix(runErr.Error(), want) || !strings.Contains(runErr.Error(), "--kubeconfig") {
		t.Errorf("kick against an unreachable API server: error %q, want it to begin %q and name the flags", runErr, want)
	}
}

// TestWhySaysItNeedsTheCluster: without a kubeconfig, why says that it
// reads the object from the API server and how to name one, instead of
// client-go's dial error to localhost:8080; a $KUBECONFIG naming only
// files that do not exist, which client-go skips without a word, is named.
func TestWhySaysItNeedsTheCluster(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	const remedy = "why reads the object from the API server; pass --kubeconfig/--context or set KUBECONFIG"
	missing := filepath.Join(t.TempDir(), "config")
	for _, tc := range []struct{ env, want string }{
		{"", "no cluster configured: " + remedy},
		{missing, "no cluster configured: KUBECONFIG=" + missing + " names no file that exists; " + remedy},
	} {
		t.Setenv("KUBECONFIG", tc.env)
		t.Setenv("HOME", t.TempDir()) // no ~/.kube/config
		for _, args := range [][]string{{"configmap/x"}, {"kustomizations"}} {
			err := run(cli.NewWhyCommand, genericiooptions.NewTestIOStreamsDiscard(), args...)
			if err == nil || err.Error() != tc.want {
				t.Errorf("KUBECONFIG=%q why %v: error = %v, want %q", tc.env, args, err, tc.want)
			}
		}
	}
}
