//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kubectl-backoff/kubectl-backoff/test/localcluster"
)

// assetFiles are what hack/k8s-bin.sh puts in KUBEBUILDER_ASSETS.
var assetFiles = []string{"kube-apiserver", "kube-controller-manager", "etcd", "kubectl", "kwok", "kwok-stages.yaml"}

// requireAssets returns KUBEBUILDER_ASSETS, or skips the test with how to
// build it when the binaries are missing.
func requireAssets(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		t.Skip("e2e: KUBEBUILDER_ASSETS is not set; run: KUBEBUILDER_ASSETS=$(hack/k8s-bin.sh) go test -tags e2e -run E2E -v -count=1 .")
	}
	for _, f := range assetFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("e2e: KUBEBUILDER_ASSETS=%s lacks %s (build it with hack/k8s-bin.sh): %v", dir, f, err)
		}
	}
	return dir
}

// startAPIServer runs envtest's etcd and kube-apiserver with the flags that a
// port-forward over loopback needs (localcluster.NewEnvironment, as
// hack/try-cluster.sh starts them), and stops them (apiserver first) at the
// end of the test.
func startAPIServer(t *testing.T, assets string, crds ...*apiextensionsv1.CustomResourceDefinition) *envtest.Environment {
	t.Helper()
	env := localcluster.NewEnvironment(assets, crds...)
	if _, err := env.Start(); err != nil {
		t.Fatalf("start kube-apiserver and etcd: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stop kube-apiserver and etcd: %v", err)
		}
	})
	return env
}

// defaultServiceAccount creates namespace ns's "default" ServiceAccount,
// as kube-controller-manager's serviceaccount controller does: the
// ServiceAccount admission plugin refuses a pod without it, and that
// controller does not run before the controller-manager case (nor fast
// enough for a Deployment created with its namespace).
func defaultServiceAccount(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	if err := localcluster.DefaultServiceAccount(ctx, cs, ns); err != nil {
		t.Fatal(err)
	}
}

// addUser creates an envtest user (client certificate) and writes its
// kubeconfig into dir.
func addUser(t *testing.T, env *envtest.Environment, dir, name string, groups ...string) (string, *rest.Config) {
	t.Helper()
	u, err := env.AddUser(envtest.User{Name: name, Groups: groups}, nil)
	if err != nil {
		t.Fatalf("add user %s: %v", name, err)
	}
	kc, err := u.KubeConfig()
	if err != nil {
		t.Fatalf("kubeconfig of %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".kubeconfig")
	if err := os.WriteFile(path, kc, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, u.Config()
}

// tokenKubeconfig writes a kubeconfig for the API server of base that
// authenticates with a bearer token.
func tokenKubeconfig(t *testing.T, base *rest.Config, dir, name, token string) string {
	t.Helper()
	c := clientcmdapi.NewConfig()
	c.Clusters["e2e"] = &clientcmdapi.Cluster{Server: base.Host, CertificateAuthorityData: base.CAData}
	c.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: token}
	c.Contexts["e2e"] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: name}
	c.CurrentContext = "e2e"
	path := filepath.Join(dir, name+".kubeconfig")
	if err := clientcmd.WriteToFile(*c, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// portForward is one entry of a kwok PortForward: a pod port sent to a
// local address.
type portForward = localcluster.PortForward

// podLog is a CRI-format file kwok serves as the log of a pod's containers.
type podLog = localcluster.PodLog

// startKwok runs kwok as the kubelet of every node (localcluster.StartKwok,
// as hack/try-cluster.sh runs it): it marks nodes Ready and pods Running,
// and serves the kubelet API (port-forward, logs) on loopback, sending the
// given pod's ports to local addresses and serving containerLog (a
// CRI-format file) as the log of each of its containers, and each of more as
// the log of its pod.
func startKwok(t *testing.T, assets, kubeconfig, dir, namespace, pod string, forwards []portForward, containerLog string, more ...podLog) {
	t.Helper()
	k, err := localcluster.StartKwok(localcluster.KwokOptions{
		Assets: assets, Kubeconfig: kubeconfig, Dir: dir,
		Stages:    neverReadyStage,
		Namespace: namespace, Pod: pod, Forwards: forwards,
		Logs: append([]podLog{{Namespace: namespace, Pod: pod, File: containerLog}}, more...),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := k.Stop(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			dumpFile(t, "kwok", k.LogPath())
		}
	})
}

// stopProcess asks a process to stop, and kills it if it has not within 10s.
func stopProcess(t *testing.T, name string, cmd *exec.Cmd, exited <-chan error) {
	t.Helper()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Errorf("%s did not stop within 10s of SIGTERM; killing it", name)
		_ = cmd.Process.Kill()
		<-exited
	}
}

// dumpFile logs the tail of a log file, for a failed test.
func dumpFile(t *testing.T, name, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if len(b) > 8<<10 {
		b = b[len(b)-8<<10:]
	}
	t.Logf("--- %s log (tail) ---\n%s", name, b)
}

// keepArtifact copies the file at path into $E2E_ARTIFACTS, when set: a
// component's real log outlives the test's temporary directory (a fixture
// of log mode's wild excerpts is copied from there).
func keepArtifact(t *testing.T, path string) {
	t.Helper()
	dir := os.Getenv("E2E_ARTIFACTS")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(path)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, filepath.Base(path)), b, 0o644)
	}
	if err != nil {
		t.Errorf("keep %s in E2E_ARTIFACTS: %v", path, err)
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	p, err := localcluster.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// eventually polls cond every 200ms until it returns nil or the deadline
// passes, then fails with its last error.
func eventually(t *testing.T, timeout time.Duration, what string, cond func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var err error
	for {
		if err = cond(ctx); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: not within %v: %v", what, timeout, err)
		case <-tick.C:
		}
	}
}
