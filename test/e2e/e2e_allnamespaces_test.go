//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	criportforward "k8s.io/cri-streaming/pkg/streaming/portforward"
	"k8s.io/utils/ptr"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// The cluster-wide view's second controller deployment: another kind of
// controller ("gizmos"), in another namespace, on a second node.
const (
	fleetNamespace  = "fleet"
	fleetNode       = "fleet-node"
	fleetPod        = "gizmos-0"
	fleetController = "gizmos"
	fleetKey        = "fleet/gizmo-1"
)

// testAllNamespaces runs a second instrumented controller (its own
// endpoint, its own controller) behind a pod in another namespace, and
// checks that `get -A` finds both pods, attaches to both, and lists the keys
// of both, each with its pod. kwok's port-forward rules are fixed when it
// starts and name the first pod only, so the second pod's node is served by
// a kubelet of this test: the kubelet's own port-forward server
// (k8s.io/cri-streaming), reached by the real API server as kwok is.
func testAllNamespaces(ctx context.Context, t *testing.T, kc *kubectl, kubeconfig string, cs kubernetes.Interface) {
	endpoint := startGizmos(t)
	createFleetPod(ctx, t, cs, startKubelet(t, endpoint))
	demoPod := ns + "/" + podName

	eventually(t, time.Minute, "get -A lists the keys of both controllers, each with its pod", func(context.Context) error {
		var list inspector.KeyList
		if err := kc.jsonOf(t, &list, kubeconfig, "backoff", "get", "-A", "--limit", "1000", "-o", "json"); err != nil {
			return err
		}
		pods := map[string]bool{}
		var gizmo *inspector.PodKey
		for i, k := range list.Items {
			pods[k.Pod+" "+k.Controller] = true
			if k.Key.Key == fleetKey {
				gizmo = &list.Items[i]
			}
		}
		switch {
		case gizmo == nil:
			return fmt.Errorf("no key %s among %d (pods and controllers: %v; unreachable: %v)", fleetKey, len(list.Items), keysOf(pods), list.Unreachable)
		case gizmo.Pod != fleetNamespace+"/"+fleetPod || gizmo.Controller != fleetController:
			return fmt.Errorf("key %s: pod %q, controller %q; want %s/%s, %s", fleetKey, gizmo.Pod, gizmo.Controller, fleetNamespace, fleetPod, fleetController)
		case !pods[demoPod+" naive"]:
			return fmt.Errorf("no naive key of pod %s (pods and controllers: %v)", demoPod, keysOf(pods))
		}
		return nil
	})

	// One controller, across the cluster: the demo's pod runs no gizmos,
	// which narrows the answer and fails nothing; the table (under the
	// controller's diagnosis) says where each key is.
	out := kc.ok(t, kubeconfig, "backoff", "get", "-A", "--controller", fleetController)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "NAMESPACE ") })
	if head < 0 || head != len(lines)-2 {
		t.Fatalf("get -A --controller %s: want a table led by NAMESPACE, with one row:\n%s", fleetController, out)
	}
	row := strings.Fields(lines[head+1])
	if len(row) < 4 || row[0] != fleetNamespace || row[1] != fleetPod || row[2] != fleetController || row[3] != fleetKey {
		t.Errorf("get -A --controller %s: last row %q, want %s %s %s %s …", fleetController, row, fleetNamespace, fleetPod, fleetController, fleetKey)
	}
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// startGizmos serves, on loopback, an endpoint whose one controller,
// gizmos, has a key failing.
func startGizmos(t *testing.T) net.Addr {
	t.Helper()
	reg := instrument.NewRegistry()
	p := instrument.NewTyped[string](fleetController, instrument.TypedOptions[string]{Registry: reg})
	_ = p.Track(fleetKey, func() error { return errors.New("gizmo supplier: 503 Service Unavailable") })
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr()
}

// kubelet forwards every pod port to one address, as kwok's PortForward does.
type kubelet struct{ target string }

// PortForward implements criportforward.PortForwarder.
func (k kubelet) PortForward(ctx context.Context, _, _ string, _ int32, stream io.ReadWriteCloser) error {
	defer stream.Close() //nolint:errcheck
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", k.target)
	if err != nil {
		return err
	}
	defer conn.Close() //nolint:errcheck
	done := make(chan struct{})
	go func() {
		io.Copy(conn, stream)            //nolint:errcheck // ends when the client is done
		conn.(*net.TCPConn).CloseWrite() //nolint:errcheck
		close(done)
	}()
	io.Copy(stream, conn) //nolint:errcheck // ends when the endpoint closes
	<-done
	return nil
}

// startKubelet serves the kubelet API's port-forward over TLS on loopback,
// every pod's ports reaching target, and returns its port.
func startKubelet(t *testing.T, target net.Addr) int {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/portForward/{ns}/{name}", func(w http.ResponseWriter, r *http.Request) {
		criportforward.ServePortForward(w, r, kubelet{target: target.String()}, r.PathValue("name"), "", nil,
			time.Minute, 10*time.Second, criportforward.SupportedProtocols)
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

// createFleetPod creates the second node, Ready and pointing the API server
// at kubeletPort (kwok initializes only nodes not Ready yet, and its
// heartbeat keeps the endpoint), and the gizmos pod on it, Running.
func createFleetPod(ctx context.Context, t *testing.T, cs kubernetes.Interface, kubeletPort int) {
	t.Helper()
	now := metav1.Now()
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: fleetNode, Labels: map[string]string{"type": "e2e-kubelet"}},
		Status: corev1.NodeStatus{
			Phase:           corev1.NodeRunning,
			Conditions:      []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: now, LastTransitionTime: now}},
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.0.0.1"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: int32(kubeletPort)}},
		},
	}
	if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create node %s: %v", fleetNode, err)
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fleetNamespace}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", fleetNamespace, err)
	}
	defaultServiceAccount(ctx, t, cs, fleetNamespace)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fleetPod, Namespace: fleetNamespace, Labels: map[string]string{"app.kubernetes.io/name": "gizmos"}},
		Spec: corev1.PodSpec{
			NodeName: fleetNode, // bound: there is no scheduler
			Containers: []corev1.Container{{Name: "controller", Image: "example.invalid/gizmos:e2e",
				Ports: []corev1.ContainerPort{{Name: "backoff", ContainerPort: backoffPort}}}},
		},
	}
	if _, err := cs.CoreV1().Pods(fleetNamespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", fleetPod, err)
	}
	t.Cleanup(func() {
		// Gone at once (no grace: no kubelet is asked), so later tests see one pod again.
		ctx := context.Background()
		_ = cs.CoreV1().Pods(fleetNamespace).Delete(ctx, fleetPod, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		_ = cs.CoreV1().Nodes().Delete(ctx, fleetNode, metav1.DeleteOptions{})
	})
	// kwok, which manages every node's pods, marks it Running too; either
	// way it must be Running for discovery.
	eventually(t, time.Minute, "the gizmos pod runs", func(ctx context.Context) error {
		p, err := cs.CoreV1().Pods(fleetNamespace).Get(ctx, fleetPod, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if p.Status.Phase == corev1.PodRunning {
			return nil
		}
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}
		if _, err := cs.CoreV1().Pods(fleetNamespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			return err
		}
		return errors.New("pod status set to Running: read it back")
	})
}
