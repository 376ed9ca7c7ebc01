//go:build e2e

package e2e

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
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
// port-forward over loopback needs, and stops them (apiserver first) at the
// end of the test.
func startAPIServer(t *testing.T, assets string, crds ...*apiextensionsv1.CustomResourceDefinition) *envtest.Environment {
	t.Helper()
	env := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		CRDInstallOptions:        envtest.CRDInstallOptions{CRDs: crds},
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	env.ControlPlane.GetAPIServer().Configure().
		// The node (kwok) is on loopback and has only an InternalIP.
		Set("advertise-address", "127.0.0.1").
		Set("endpoint-reconciler-type", "none").
		Set("kubelet-preferred-address-types", "InternalIP").
		// envtest turns the ServiceAccount admission plugin off (no
		// serviceaccount controller makes the "default" ones); the
		// missing-ServiceAccount case needs it to refuse a pod. Its
		// service-account-key-file and -signing-key-file flags, which the
		// plugin's projected token volume needs, are envtest's defaults.
		// Namespaces are made with their "default" ServiceAccount
		// (mustCreate, defaultServiceAccount).
		Disable("disable-admission-plugins")
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
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns}}
	if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create serviceaccount default in %s: %v", ns, err)
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
type portForward struct {
	PodPort int
	Target  net.Addr
}

// podLog is a CRI-format file kwok serves as the log of a pod's containers.
type podLog struct {
	Namespace, Pod, File string
}

// startKwok runs kwok as the kubelet of every node: it marks nodes Ready and
// pods Running, and serves the kubelet API (port-forward, logs) on loopback,
// sending the given pod's ports to local addresses and serving containerLog
// (a CRI-format file) as the log of each of its containers, and each of
// more as the log of its pod.
func startKwok(t *testing.T, assets, kubeconfig, dir, namespace, pod string, forwards []portForward, containerLog string, more ...podLog) {
	t.Helper()
	certFile, keyFile := selfSignedCert(t, dir)
	stages, err := os.ReadFile(filepath.Join(assets, "kwok-stages.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pf strings.Builder
	fmt.Fprintf(&pf, "---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: PortForward\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  forwards:\n", pod, namespace)
	for _, f := range forwards {
		host, port, _ := net.SplitHostPort(f.Target.String())
		fmt.Fprintf(&pf, "  - ports: [%d]\n    target:\n      address: %s\n      port: %s\n", f.PodPort, host, port)
	}
	// A Logs entry without containers is every container's.
	for _, l := range append([]podLog{{namespace, pod, containerLog}}, more...) {
		fmt.Fprintf(&pf, "---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: Logs\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  logs:\n  - logsFile: %s\n    follow: true\n", l.Pod, l.Namespace, l.File)
	}
	config := filepath.Join(dir, "kwok.yaml")
	stages = append(stages, neverReadyStage...)
	if err := os.WriteFile(config, append(stages, pf.String()...), 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cmd := exec.Command(filepath.Join(assets, "kwok"),
		"--kubeconfig="+kubeconfig,
		"--config="+config,
		"--manage-all-nodes=true",
		"--node-ip=127.0.0.1",
		fmt.Sprintf("--node-port=%d", port),
		fmt.Sprintf("--server-address=127.0.0.1:%d", port),
		"--tls-cert-file="+certFile,
		"--tls-private-key-file="+keyFile,
	)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	logFile, err := os.Create(filepath.Join(dir, "kwok.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start kwok: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stopProcess(t, "kwok", cmd, exited)
		logFile.Close()
		if t.Failed() {
			dumpFile(t, "kwok", logFile.Name())
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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// selfSignedCert writes a certificate for 127.0.0.1 (kwok's serving cert:
// the API server does not verify it) and its key.
func selfSignedCert(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "kwok"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "kwok.crt"), filepath.Join(dir, "kwok.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
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
