//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	fleetread "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet/fleettest"
)

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
	dash := fleettest.ReadDashboard(t, "../../config/grafana/kubectl-backoff-fleet.json")
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
		// The selected row is marked "› ", the others indented as much.
		if !regexp.MustCompile(`(?m)^(› |  )?kcm\s+demo\s+naive\s`).MatchString(screen) {
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
