//go:build e2e

// The end-to-end tier: a real kube-apiserver and etcd (envtest), a kwok node
// and pod whose port-forward reaches the demo running in this process, and
// the built plugin run by the real kubectl. Run it with
//
//	KUBEBUILDER_ASSETS=$(hack/k8s-bin.sh) go test -tags e2e -run E2E -v -count=1 ./test/e2e
//
// Without the e2e tag it does not build; without the binaries it skips.

package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/test/localcluster"
)

const ns = demo.DefaultNamespace

// target is how every command names the controller's workload.
var target = []string{"deploy/" + deploymentName, "-n", ns}

func TestE2E(t *testing.T) {
	assets := requireAssets(t)
	ctrllog.SetLogger(logr.Discard())
	dir := t.TempDir()
	kc := buildPlugin(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	env := startAPIServer(t, assets, widgetCRD(), gadgetCRD())
	admin, adminCfg := addUser(t, env, dir, "e2e-admin", "system:masters")
	cs := kubernetes.NewForConfigOrDie(adminCfg)
	c, err := client.New(adminCfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}

	// The demo in kubeconfig mode: its controllers reconcile real ConfigMaps,
	// its endpoint listens on loopback.
	// Its controller-runtime log is the pod's container log, for --from-logs.
	var demoLog lockedBuffer
	controllerLog := newCRILog(t, filepath.Join(dir, "controller.log"))
	demoCtx, stopDemo := context.WithCancel(ctx)
	d, err := demo.Start(demoCtx, demo.Options{
		RESTConfig: adminCfg, Keys: 60, Seed: 42, Speed: 1, Listen: "127.0.0.1:0",
		Out: &demoLog, ErrOut: &demoLog, ControllerLog: controllerLog,
	})
	if err != nil {
		stopDemo()
		t.Fatalf("demo.Start: %v", err)
	}
	t.Cleanup(func() {
		stopDemo()
		if err := d.Wait(); err != nil {
			t.Errorf("demo stopped with: %v", err)
		}
		if t.Failed() {
			out := demoLog.String()
			t.Logf("--- demo output (tail) ---\n%s", out[max(0, len(out)-8<<10):])
		}
	})
	metricsAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	startWidgets(t, adminCfg, ns, metricsAddr, d.Registry())
	startGadgets(t, adminCfg, ns, controllerLog) // why: a controller without the instrument, in the pod's log

	createWorkload(ctx, t, cs, ns)
	// kube-controller-manager's log, served as its static pod's (the
	// controller-manager subtest starts it, last: it reconciles every
	// namespace's Deployments).
	kcmLog := newCRILog(t, filepath.Join(dir, "kube-controller-manager.log"))
	startKwok(t, assets, admin, dir, ns, podName, []portForward{
		{PodPort: backoffPort, Target: d.Addr()},
		{PodPort: metricsPort, Target: tcpAddr(metricsAddr)},
	}, controllerLog.path, podLog{Namespace: "kube-system", Pod: kcmPod, File: kcmLog.path})
	eventually(t, time.Minute, "kwok runs the pod", func(ctx context.Context) error { return podRunning(ctx, cs, ns) })

	t.Run("get", func(t *testing.T) {
		eventually(t, time.Minute, "naive keys back off", func(context.Context) error {
			var list inspector.KeyList
			if err := kc.jsonOf(t, &list, admin, cmd("get", "--controller", "naive", "--state", "backoff", "-o", "json")...); err != nil {
				return err
			}
			if len(list.Items) == 0 {
				return fmt.Errorf("no naive key in backoff yet (%d tracked)", list.Total)
			}
			for _, k := range list.Items {
				if k.Controller != "naive" || k.State != api.StateBackoff || k.LastError == nil {
					return fmt.Errorf("key %s: controller %s, state %s, last error %v; want naive, backoff, an error", k.Key.Key, k.Controller, k.State, k.LastError)
				}
			}
			return nil
		})
	})

	// Before any forget: a forget resets the instrument's count, not the log's.
	t.Run("from-logs", func(t *testing.T) { testFromLogs(t, kc, admin, controllerLog.path) })

	// top follows the pod's log (pods/log, follow) instead of reading it once.
	t.Run("top-from-logs", func(t *testing.T) {
		testTop(t, kc, admin, t.TempDir(), cmd("top", "--from-logs"), "logs: deployment/demo")
	})

	t.Run("kick", func(t *testing.T) { testKick(ctx, t, kc, env, dir, cs, c) })

	t.Run("describe", func(t *testing.T) {
		out := describeNaivePermanent(t, kc, admin, cmd("describe", "--controller", "naive", ns+"/naive-00000"))
		for _, want := range []string{"Key:         demo/naive-00000", "Controller:  naive (ConfigMap v1)", "spec.storageClass must be set", "consecutive failures", "Object:", "Verdict:"} {
			if !strings.Contains(out, want) {
				t.Errorf("describe output lacks %q:\n%s", want, out)
			}
		}
		// The API server keeps no generation for a ConfigMap (its strategy
		// sets none, as a Deployment's sets 1): describe says none, not 0.
		if strings.Contains(out, "Generation:") || strings.Contains(out, "generation 0") {
			t.Errorf("describe gives a ConfigMap a generation:\n%s", out)
		}
	})

	t.Run("forget", func(t *testing.T) { testForget(t, kc, admin) })
	t.Run("forget-event", func(t *testing.T) { testForgetEvent(t, kc, admin) })

	t.Run("discovery", func(t *testing.T) {
		var list inspector.KeyList
		if err := kc.jsonOf(t, &list, admin, "backoff", "get", "-n", ns, "--limit", "3", "-o", "json"); err != nil {
			t.Fatal(err)
		}
		// The endpoint is reachable only through the pod's port-forward, and
		// only the pod's container port named "backoff" marks it.
		if len(list.Items) == 0 || list.Total < 60 {
			t.Errorf("no-target discovery: got %d keys of %d tracked, want keys of at least the demo's 60", len(list.Items), list.Total)
		}
	})

	t.Run("no-portforward-permission", func(t *testing.T) {
		user, _ := addUser(t, env, dir, "e2e-no-portforward")
		grantRole(ctx, t, cs, ns, "backoff-no-portforward", attachRules(false), rbacv1.Subject{Kind: rbacv1.UserKind, Name: "e2e-no-portforward"})
		_, errOut, err := kc.run(t, user, cmd("get")...)
		if err == nil {
			t.Fatal("get without pods/portforward succeeded")
		}
		if want := `"create" on "pods/portforward"`; !strings.Contains(errOut, want) {
			t.Errorf("error lacks %s:\n%s", want, errOut)
		}
	})

	t.Run("object-link", func(t *testing.T) { testObjectLink(ctx, t, kc, admin, c) })

	t.Run("why", func(t *testing.T) { testWhy(ctx, t, kc, admin, c, env, dir, cs) })

	// After why: its failing widget is what the MCP client asks why about.
	t.Run("mcp", func(t *testing.T) { testMCP(t, kc, admin) })
	t.Run("why-addr", func(t *testing.T) { testWhyAddr(ctx, t, kc, admin, d.URL()) })

	t.Run("metrics-server-authz", func(t *testing.T) { testMetricsAuthz(ctx, t, kc, adminCfg, cs, dir) })

	t.Run("all-namespaces", func(t *testing.T) { testAllNamespaces(ctx, t, kc, admin, cs) })

	t.Run("rbac", func(t *testing.T) { testShippedRBAC(ctx, t, kc, admin, adminCfg) })

	t.Run("metrics", func(t *testing.T) { testMetrics(ctx, t, cs, metricsAddr, d.URL()) })
	t.Run("fleet", func(t *testing.T) { testFleetPrometheus(ctx, t, kc, admin, dir, cs, metricsAddr) })

	// What hack/try-cluster.sh prints, on this same workload and demo.
	t.Run("try-cluster", func(t *testing.T) { testTries(t, kc, admin) })

	t.Run("top", func(t *testing.T) { testTop(t, kc, admin, dir, cmd("top")) })

	// Last: the real kube-controller-manager reconciles every namespace.
	t.Run("controller-manager", func(t *testing.T) { testControllerManager(ctx, t, kc, assets, admin, cs, c, kcmLog) })
}

// cmd is `backoff VERB deploy/demo -n demo ARGS...`.
func cmd(verb string, args ...string) []string {
	return slices.Concat([]string{"backoff", verb}, target, args)
}

// testTop runs `kubectl ARGS...` (a top) in a terminal, waits for a demo key
// and every want on screen, and quits it with q: it must exit 0.
func testTop(t *testing.T, kc *kubectl, admin, dir string, args []string, want ...string) {
	// The shell keeps the pane open after top exits, to read its status.
	s := startTmux(t, dir, kc.env(admin), "kubectl "+shellQuote(args...)+`; echo "top exited $?"; read _`)
	keyLine := regexp.MustCompile(`demo/(naive|outage|polling|conflicts|slow|wellbehaved)-\d{5}`)
	eventually(t, time.Minute, "top shows keys", func(context.Context) error {
		screen, err := s.capture()
		if err != nil {
			return err
		}
		if !keyLine.MatchString(screen) {
			return fmt.Errorf("no key on screen:\n%s", screen)
		}
		for _, w := range want {
			if !strings.Contains(screen, w) {
				return fmt.Errorf("no %q on screen:\n%s", w, screen)
			}
		}
		return nil
	})
	if err := s.sendKeys("q"); err != nil {
		t.Fatal(err)
	}
	eventually(t, 15*time.Second, "top quits on q", func(context.Context) error {
		screen, err := s.capture()
		if err != nil {
			return err
		}
		if !strings.Contains(screen, "top exited 0") {
			return fmt.Errorf("top has not exited 0:\n%s", screen)
		}
		return nil
	})
}

// testTries runs the commands hack/try-cluster.sh prints (localcluster.Tries)
// on this cluster, whose workload and demo are the script's: each must
// succeed, why must name the failing controller, and those that take a
// terminal must be the tops the top subtests run in one.
func testTries(t *testing.T, kc *kubectl, admin string) {
	for _, tr := range localcluster.Tries(ns) {
		args := append([]string{"backoff"}, tr.Args...)
		if tr.Terminal {
			if !slices.Equal(args, cmd("top")) && !slices.Equal(args, cmd("top", "--from-logs")) {
				t.Errorf("try-cluster prints %q, which no top subtest runs in a terminal: add it to TestE2E", args)
			}
			continue
		}
		out := kc.ok(t, admin, args...)
		if tr.Args[0] == "why" && !strings.Contains(out, `controller "naive" is failing on it`) {
			t.Errorf("%q does not say that naive is failing on it:\n%s", args, out)
		}
	}
}

// testForget resets a backed-off naive key and retries it now.
func testForget(t *testing.T, kc *kubectl, admin string) {
	key := ns + "/naive-00001"
	var before inspector.KeyList
	eventually(t, time.Minute, key+" fails repeatedly", func(context.Context) error {
		if err := kc.jsonOf(t, &before, admin, cmd("get", "--controller", "naive", key, "-o", "json")...); err != nil {
			return err
		}
		if k := before.Items[0]; k.Failures < 3 {
			return fmt.Errorf("%s has %d failures", key, k.Failures)
		}
		return nil
	})
	var resp api.ForgetResponse
	if err := kc.jsonOf(t, &resp, admin, cmd("forget", "--controller", "naive", key, "--requeue", "-y", "-o", "json")...); err != nil {
		t.Fatal(err)
	}
	if resp.Count != 1 || !resp.Requeued {
		t.Fatalf("forget: count %d, requeued %v; want 1, true", resp.Count, resp.Requeued)
	}
	// The reset restarts the count, not the failure streak, and the retry
	// runs at once, after the forget on the pod's clock.
	eventually(t, 30*time.Second, key+" retried after the forget", func(context.Context) error {
		var after inspector.KeyList
		if err := kc.jsonOf(t, &after, admin, cmd("get", "--controller", "naive", key, "-o", "json")...); err != nil {
			return err
		}
		k := after.Items[0]
		switch {
		case !k.FirstFailureAt.Equal(before.Items[0].FirstFailureAt):
			return fmt.Errorf("failure streak began %v, want %v still: a forget restarts the count, not the failure", k.FirstFailureAt, before.Items[0].FirstFailureAt)
		case k.LastReset == nil || k.LastReset.By != api.ResetForget || k.LastReset.At.Sub(resp.ServerTime).Abs() > time.Second:
			return fmt.Errorf("last reset %+v, want the forget at %v", k.LastReset, resp.ServerTime)
		case !k.LastReconcileAt.After(resp.ServerTime):
			return fmt.Errorf("last reconcile %v, not after the forget at %v", k.LastReconcileAt, resp.ServerTime)
		case k.TotalFailures <= before.Items[0].TotalFailures:
			return fmt.Errorf("total failures %d, was %d: no retry counted", k.TotalFailures, before.Items[0].TotalFailures)
		}
		return nil
	})
}

// testObjectLink edits a failing widget: its generation moves past
// status.observedGeneration, and describe says the edit is not observed
// while the key backs off.
func testObjectLink(ctx context.Context, t *testing.T, kc *kubectl, admin string, c client.Client) {
	w := newWidget(ns, "w1", map[string]any{"fail": false})
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "widget w1 observed", func(ctx context.Context) error {
		gen, og, err := widgetObservedGeneration(ctx, c, ns, "w1")
		if err == nil && og != gen {
			err = fmt.Errorf("generation %d, observed %d", gen, og)
		}
		return err
	})
	edit := func(spec map[string]any) {
		t.Helper()
		u := newWidget(ns, "w1", nil)
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
			t.Fatal(err)
		}
		u.Object["spec"] = spec
		if err := c.Update(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	key := ns + "/w1"
	edit(map[string]any{"fail": true}) // generation 2: the reconciles fail from now on
	eventually(t, 30*time.Second, key+" in backoff", func(context.Context) error {
		var l inspector.KeyList
		if err := kc.jsonOf(t, &l, admin, cmd("get", "--controller", widgetsController, key, "-o", "json")...); err != nil {
			return err
		}
		if s := l.Items[0].State; s != api.StateBackoff {
			return fmt.Errorf("%s is %s", key, s)
		}
		return nil
	})
	edit(map[string]any{"fail": true, "size": int64(2)}) // generation 3, while failing
	eventually(t, 30*time.Second, "describe reports the edit not observed", func(context.Context) error {
		var d describe.Description
		if err := kc.jsonOf(t, &d, admin, cmd("describe", "--controller", widgetsController, key, "-o", "json")...); err != nil {
			return err
		}
		switch o := d.Object; {
		case o == nil:
			return fmt.Errorf("no object in the description (%s)", d.ObjectError)
		case o.Verdict.Generation != 3 || o.Verdict.ObservedGeneration == nil || *o.Verdict.ObservedGeneration != 1:
			return fmt.Errorf("object generation %d, observed %v; want 3 and 1", o.Verdict.Generation, o.Verdict.ObservedGeneration)
		case d.Key.State != api.StateBackoff:
			return fmt.Errorf("key is %s, want backoff", d.Key.State)
		case !slices.ContainsFunc(d.Diagnosis.Findings, func(f explain.Finding) bool { return f.Code == explain.FindingUnobserved }):
			return fmt.Errorf("no %s finding in %+v", explain.FindingUnobserved, d.Diagnosis.Findings)
		}
		return nil
	})
	out := kc.ok(t, admin, cmd("describe", "--controller", widgetsController, key)...)
	if want := "Your edit (generation 3) is not observed yet"; !strings.Contains(out, want) {
		t.Errorf("describe lacks %q:\n%s", want, out)
	}
}
