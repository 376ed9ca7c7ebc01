//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	criportforward "k8s.io/cri-streaming/pkg/streaming/portforward"
	"k8s.io/utils/ptr"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	fleetread "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
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

// The fleet view through a real Prometheus (kubectl backoff fleet): the
// cluster of this tier, named "kcm" by its scrape labels, and two
// embedded demos as clusters "east" and "west".
const (
	fleetCluster      = "kcm"
	fleetPromCtx      = "kcm"       // the kube context named as the cluster
	fleetOtherContext = "elsewhere" // the kubeconfig's current context: not the cluster's
)

// testFleetPrometheus starts Debian's Prometheus (/usr/bin/prometheus)
// scraping the demo that runs against this tier's API server the way a
// PodMonitor would: its manager's metrics server (controller-runtime's
// registry, where every probe of the process registers its series), over
// HTTPS with a service account's token; and two embedded demos labelled
// east and west. `fleet -o json` must show the three clusters and the kcm
// rows' keys by state as the endpoint's own `get` counts them, its retry
// delays under naive; then, in a terminal, enter on kcm's naive row must
// attach through the kube context named kcm (the kubeconfig's current
// context points elsewhere) and show naive's keys.
func testFleetPrometheus(ctx context.Context, t *testing.T, kc *kubectl, admin, dir string, cs kubernetes.Interface, metricsAddr string) {
	bin := "/usr/bin/prometheus"
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("Debian's prometheus is not installed (%v): apt-get install prometheus", err)
	}
	token, sub := serviceAccountToken(ctx, t, cs, ns, "backoff-prometheus")
	cr := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "backoff-prometheus"},
		Rules:      []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}},
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crb := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "backoff-prometheus"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "backoff-prometheus"},
		Subjects:   []rbacv1.Subject{sub},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	promDir := t.TempDir()
	tokenFile := filepath.Join(promDir, "token")
	if err := os.WriteFile(tokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	east, west := startFleetDemo(ctx, t, 40, 7), startFleetDemo(ctx, t, 90, 11)
	prom := startPrometheus(t, bin, promDir, fmt.Sprintf(`
- job_name: kcm
  scheme: https
  tls_config: {insecure_skip_verify: true}
  authorization: {credentials_file: %q}
  static_configs:
  - targets: [%q]
    labels: {cluster: %q, namespace: %q}
- job_name: east
  static_configs:
  - targets: [%q]
    labels: {cluster: east, namespace: demo}
- job_name: west
  static_configs:
  - targets: [%q]
    labels: {cluster: west, namespace: demo}
`, tokenFile, metricsAddr, fleetCluster, ns, east, west))

	// The demo changes as it runs: the round that counts is one in which
	// the endpoint's get and the last scrape saw the same keys.
	var f fleetread.Fleet
	eventually(t, 2*time.Minute, "fleet -o json shows the kcm cluster as its get does", func(context.Context) error {
		var list inspector.KeyList
		if err := kc.jsonOf(t, &list, admin, cmd("get", "--limit", "0", "-o", "json")...); err != nil {
			return err
		}
		want := map[string]map[api.State]int{}
		for _, k := range list.Items {
			if want[k.Controller] == nil {
				want[k.Controller] = map[api.State]int{}
				for _, st := range api.States {
					want[k.Controller][st] = 0
				}
			}
			want[k.Controller][k.State]++
		}
		f = fleetread.Fleet{}
		if err := kc.jsonOf(t, &f, admin, "backoff", "fleet", "--prometheus", prom, "-o", "json"); err != nil {
			return err
		}
		if e, a := []string{"east", fleetCluster, "west"}, f.Clusters; !slices.Equal(e, a) {
			return fmt.Errorf("clusters: want %v, got %v", e, a)
		}
		got := map[string]map[api.State]int{}
		for _, r := range f.Rows {
			if r.Cluster == fleetCluster {
				if r.Namespace != ns {
					return fmt.Errorf("row %s: namespace %q, want %s (the scrape's label)", r.ID(), r.Namespace, ns)
				}
				got[r.Controller] = r.Keys
			}
		}
		var diffs []string
		for c, w := range want {
			if fmt.Sprint(w) != fmt.Sprint(got[c]) {
				diffs = append(diffs, fmt.Sprintf("%s: get %v, fleet %v", c, w, got[c]))
			}
		}
		if len(want) == 0 || len(diffs) > 0 {
			return fmt.Errorf("%d controllers of get differ:\n%s", len(diffs), strings.Join(diffs, "\n"))
		}
		return nil
	})
	var naive *fleetread.Row
	for i, r := range f.Rows {
		if r.Cluster == fleetCluster && r.Controller == "naive" {
			naive = &f.Rows[i]
		}
	}
	if naive == nil || naive.Failing() == 0 {
		t.Fatalf("kcm's naive row fails nothing: %+v", naive)
	}
	t.Logf("kcm/naive through Prometheus: keys %v, oldest failure %.0fs, streak %d", naive.Keys, naive.OldestFailureSeconds, naive.MaxFailures)
	// Its delays of the last hour, from the histogram: naive's keys have
	// all backed off since the tier began.
	eventually(t, time.Minute, "kcm's naive row has its retry delays", func(context.Context) error {
		var g fleetread.Fleet
		if err := kc.jsonOf(t, &g, admin, "backoff", "fleet", "--prometheus", prom, "--cluster", fleetCluster, "-q", "naive", "-o", "json"); err != nil {
			return err
		}
		if len(g.Rows) != 1 || g.Rows[0].RetryDelays == nil || g.Rows[0].RetryDelays.Retries == 0 {
			return fmt.Errorf("rows %+v: want kcm/demo/naive with retries", g.Rows)
		}
		t.Logf("kcm/naive retry delays: %+v", *g.Rows[0].RetryDelays)
		return nil
	})

	// Every panel of the Grafana dashboard answers from this Prometheus,
	// the tier's cluster among its clusters.
	raw, err := os.ReadFile("../../config/grafana/kubectl-backoff-fleet.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	c, err := fleetread.NewClient(fleetread.Config{URL: prom})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			eventually(t, 30*time.Second, "dashboard panel "+p.Title+" answers with kcm's data", func(ctx context.Context) error {
				r, err := c.Query(ctx, tg.Expr, time.Now())
				if err != nil {
					return err
				}
				for _, s := range r.Samples {
					if s.Labels["cluster"] == fleetCluster {
						return nil
					}
				}
				return fmt.Errorf("%d samples, none of cluster %s", len(r.Samples), fleetCluster)
			})
		}
	}

	// Enter on the row: fleet's --kubeconfig has the context named as the
	// cluster, and a current context whose server is not there; $KUBECONFIG
	// (admin's) has no context kcm, so top reaches the cluster only if it
	// was given fleet's --kubeconfig and --context kcm.
	kubeconfig := fleetKubeconfig(t, admin, dir)
	s := startTmux(t, t.TempDir(), kc.env(admin),
		"kubectl "+shellQuote("backoff", "fleet", "--kubeconfig", kubeconfig, "--prometheus", prom, "--cluster", fleetCluster, "-q", "naive")+`; echo "fleet exited $?"; read _`)
	eventually(t, time.Minute, "the fleet view shows kcm's naive row", func(context.Context) error {
		screen, err := s.capture()
		if err != nil {
			return err
		}
		if !regexp.MustCompile(`(?m)^kcm\s+demo\s+naive\s`).MatchString(screen) {
			return fmt.Errorf("no kcm demo naive row:\n%s", screen)
		}
		return nil
	})
	if err := s.sendKeys("Enter"); err != nil {
		t.Fatal(err)
	}
	keyLine := regexp.MustCompile(`demo/naive-\d{5}`)
	eventually(t, time.Minute, "enter attaches top through context kcm and shows naive's keys", func(context.Context) error {
		screen, err := s.capture()
		if err != nil {
			return err
		}
		// The fleet view shows naive's worst keys too: the screen must be
		// top's, through the context kcm.
		switch {
		case strings.Contains(screen, "fleet exited"):
			return fmt.Errorf("fleet exited:\n%s", screen)
		case !strings.Contains(screen, "backoff top · ctx "+fleetPromCtx+" "):
			return fmt.Errorf("not top through context %s:\n%s", fleetPromCtx, screen)
		case !keyLine.MatchString(screen):
			return fmt.Errorf("no naive key on screen:\n%s", screen)
		}
		return nil
	})
	screen, _ := s.capture()
	t.Logf("top after enter:\n%s", screen)
	if err := s.sendKeys("q"); err != nil {
		t.Fatal(err)
	}
	eventually(t, 15*time.Second, "top quits on q, and fleet with it", func(context.Context) error {
		screen, err := s.capture()
		if err != nil {
			return err
		}
		if !strings.Contains(screen, "fleet exited 0") {
			return fmt.Errorf("fleet has not exited 0:\n%s", screen)
		}
		if want := "attaching: kubectl backoff top --context " + fleetPromCtx + " --controller naive --kubeconfig"; !strings.Contains(screen, want) {
			return fmt.Errorf("no %q on screen:\n%s", want, screen)
		}
		return nil
	})
}

// startFleetDemo runs an embedded demo (its own controllers and registry,
// /metrics beside its endpoint) on a loopback port and returns its address.
func startFleetDemo(ctx context.Context, t *testing.T, keys int, seed int64) string {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	opts := demo.DefaultOptions()
	opts.Keys, opts.Seed, opts.Listen = keys, seed, "127.0.0.1:0"
	d, err := demo.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("demo.Start: %v", err)
	}
	t.Cleanup(func() { cancel(); _ = d.Wait() })
	return d.Addr().String()
}

// startPrometheus runs bin scraping every second with the scrape configs
// given (YAML list items), and returns its URL once it is ready.
func startPrometheus(t *testing.T, bin, dir, scrapeConfigs string) string {
	t.Helper()
	cfg := "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:" + scrapeConfigs
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	logPath := filepath.Join(dir, "prometheus.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stopProcess(t, "prometheus", cmd, exited)
		_ = logFile.Close()
		if t.Failed() {
			dumpFile(t, "prometheus", logPath)
		}
	})
	url := "http://" + addr
	eventually(t, 30*time.Second, "Prometheus ready at "+url, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/-/ready", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return errors.New(resp.Status)
		}
		return nil
	})
	return url
}

// fleetKubeconfig is admin's kubeconfig with two contexts: kcm, the
// cluster's (named as the fleet's cluster label), and the current one,
// elsewhere, whose server is not there; so that only a top that went
// through the kcm context reaches the cluster.
func fleetKubeconfig(t *testing.T, admin, dir string) string {
	t.Helper()
	c, err := clientcmd.LoadFromFile(admin)
	if err != nil {
		t.Fatal(err)
	}
	cur := c.Contexts[c.CurrentContext]
	if cur == nil {
		t.Fatalf("%s: no current context", admin)
	}
	c.Clusters["nowhere"] = &clientcmdapi.Cluster{Server: fmt.Sprintf("https://127.0.0.1:%d", freePort(t)), InsecureSkipTLSVerify: true}
	c.Contexts = map[string]*clientcmdapi.Context{
		fleetPromCtx:      {Cluster: cur.Cluster, AuthInfo: cur.AuthInfo},
		fleetOtherContext: {Cluster: "nowhere", AuthInfo: cur.AuthInfo},
	}
	c.CurrentContext = fleetOtherContext
	path := filepath.Join(dir, "fleet.kubeconfig")
	if err := clientcmd.WriteToFile(*c, path); err != nil {
		t.Fatal(err)
	}
	return path
}
