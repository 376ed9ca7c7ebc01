package localcluster

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// PortForward is one entry of a kwok PortForward: a pod port sent to a local
// address.
type PortForward struct {
	PodPort int
	Target  net.Addr
}

// PodLog is a CRI-format file (CRILog) kwok serves as the log of a pod's
// containers.
type PodLog struct {
	Namespace, Pod, File string
}

// KwokOptions say what kwok serves. Assets, Kubeconfig and Dir are required.
type KwokOptions struct {
	// Assets is hack/k8s-bin.sh's directory: kwok and kwok-stages.yaml.
	Assets string
	// Kubeconfig is an admin's: kwok manages the nodes and pods.
	Kubeconfig string
	// Dir receives kwok's config, serving certificate and log (kwok.log).
	Dir string
	// Stages are more kwok Stages (YAML documents) beside kwok's own.
	Stages string
	// Namespace and Pod name the pod whose ports Forwards sends.
	Namespace, Pod string
	Forwards       []PortForward
	// Logs are served as pods' container logs.
	Logs []PodLog
}

// Kwok is a running kwok.
type Kwok struct {
	cmd    *exec.Cmd
	exited chan error
	log    *os.File
}

// StartKwok runs kwok as the kubelet of every node: it marks nodes Ready and
// pods Running, and serves the kubelet API (port-forward, logs) on
// 127.0.0.1, sending the pod's ports to local addresses and serving each of
// Logs as its pod's containers' log.
func StartKwok(o KwokOptions) (*Kwok, error) {
	certFile, keyFile, err := SelfSignedCert(o.Dir)
	if err != nil {
		return nil, err
	}
	stages, err := os.ReadFile(filepath.Join(o.Assets, "kwok-stages.yaml"))
	if err != nil {
		return nil, err
	}
	config := filepath.Join(o.Dir, "kwok.yaml")
	body := string(stages) + o.Stages + kwokObjects(o)
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(filepath.Join(o.Assets, "kwok"),
		"--kubeconfig="+o.Kubeconfig,
		"--config="+config,
		"--manage-all-nodes=true",
		"--node-ip=127.0.0.1",
		fmt.Sprintf("--node-port=%d", port),
		fmt.Sprintf("--server-address=127.0.0.1:%d", port),
		"--tls-cert-file="+certFile,
		"--tls-private-key-file="+keyFile,
	)
	// kwok reads and writes under $HOME/.kwok: keep it in Dir.
	cmd.Env = append(os.Environ(), "HOME="+o.Dir)
	logFile, err := os.Create(filepath.Join(o.Dir, "kwok.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start kwok: %w", err)
	}
	k := &Kwok{cmd: cmd, exited: make(chan error, 1), log: logFile}
	go func() { k.exited <- cmd.Wait() }()
	return k, nil
}

// kwokObjects are the PortForward and Logs objects of o, as YAML documents.
func kwokObjects(o KwokOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: PortForward\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  forwards:\n", o.Pod, o.Namespace)
	for _, f := range o.Forwards {
		host, port, _ := net.SplitHostPort(f.Target.String())
		fmt.Fprintf(&b, "  - ports: [%d]\n    target:\n      address: %s\n      port: %s\n", f.PodPort, host, port)
	}
	// A Logs entry without containers is every container's.
	for _, l := range o.Logs {
		fmt.Fprintf(&b, "---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: Logs\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  logs:\n  - logsFile: %s\n    follow: true\n", l.Pod, l.Namespace, l.File)
	}
	return b.String()
}

// LogPath is kwok's own log.
func (k *Kwok) LogPath() string { return k.log.Name() }

// Exited receives kwok's exit, once, should it end before Stop: a caller
// that waits on it learns that the kubelet is gone.
func (k *Kwok) Exited() <-chan error { return k.exited }

// ErrKilled says kwok did not stop within the grace period of Stop and was
// killed.
var ErrKilled = errors.New("kwok did not stop within 10s of SIGTERM; killed")

// Stop asks kwok to stop, kills it if it has not within 10s, and closes its
// log.
func (k *Kwok) Stop() error {
	defer k.log.Close()
	_ = k.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-k.exited:
		return nil
	case <-time.After(10 * time.Second):
		_ = k.cmd.Process.Kill()
		<-k.exited
		return ErrKilled
	}
}

// FreePort returns a loopback port that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
