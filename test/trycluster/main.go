// Command trycluster starts a local cluster to try the plugin's cluster path
// on (top deploy/…, why TYPE/NAME, kick, port-forward to an instrumented pod):
// the e2e tier's cluster (test/localcluster: envtest's etcd and
// kube-apiserver, kwok as the kubelet) with the demo's controllers as the
// instrumented pod's process. It writes a kubeconfig, prints the commands to
// try, and on Ctrl-C stops everything it started. Everything listens on
// 127.0.0.1.
//
// hack/try-cluster.sh builds the binaries (hack/k8s-bin.sh) and the plugin,
// and runs it:
//
//	hack/try-cluster.sh
//
// Run alone, it needs the directory hack/k8s-bin.sh prints:
//
//	go run ./test/trycluster -assets "$(hack/k8s-bin.sh)"
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/test/localcluster"
)

func main() {
	var o options
	flag.StringVar(&o.assets, "assets", os.Getenv("KUBEBUILDER_ASSETS"), "the directory hack/k8s-bin.sh prints (kube-apiserver, etcd, kwok)")
	flag.StringVar(&o.dir, "dir", defaultDir(), "where the kubeconfig and the logs go (emptied at each start)")
	flag.StringVar(&o.pluginDir, "plugin-dir", "", "the directory holding the kubectl-backoff to try, put first on PATH in the printed commands")
	flag.IntVar(&o.keys, "keys", 60, "the demo's objects (ConfigMaps in namespace demo)")
	flag.Parse()
	if o.assets == "" {
		fmt.Fprintln(os.Stderr, "trycluster: -assets is required: run hack/try-cluster.sh, or go run ./test/trycluster -assets \"$(hack/k8s-bin.sh)\"")
		os.Exit(2)
	}
	// A closed terminal or pipe must not kill the process before it has
	// stopped what it started: a write there fails instead.
	signal.Ignore(syscall.SIGPIPE)
	if abs, err := filepath.Abs(o.assets); err == nil {
		o.assets = abs // the children's program paths are matched against it
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := run(ctx, o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "trycluster: %v\n", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	assets, dir, pluginDir string
	keys                   int
}

// defaultDir is the state directory, beside hack/k8s-bin.sh's cache.
func defaultDir() string {
	c, err := os.UserCacheDir()
	if err != nil {
		c = os.TempDir()
	}
	return filepath.Join(c, "kubectl-backoff", "try-cluster")
}

// run starts the cluster, the demo and kwok, prints what to try, and waits
// for ctx (Ctrl-C); every started part is stopped on the way out, last
// started first, whatever the reason.
func run(ctx context.Context, o options, out, errOut io.Writer) (err error) {
	unlock, err := lockDir(o.dir)
	if err != nil {
		return err
	}
	defer unlock()
	stopLeftovers(o.dir, o.assets, errOut)
	var stops []func() error
	defer func() {
		if ctx.Err() != nil {
			err = nil // interrupted: what failed while starting failed for that
		}
		fmt.Fprintln(errOut, "trycluster: stopping the demo, kwok, kube-apiserver and etcd")
		for i := len(stops) - 1; i >= 0; i-- {
			err = errors.Join(err, stops[i]())
		}
		if err == nil {
			fmt.Fprintln(errOut, "trycluster: stopped; nothing is left running")
		}
	}()
	step := func(format string, args ...any) { fmt.Fprintf(errOut, "trycluster: "+format+"\n", args...) }

	step("starting etcd and kube-apiserver from %s", o.assets)
	env := localcluster.NewEnvironment(o.assets)
	if _, err := env.Start(); err != nil {
		// envtest stops what it started of a failed start only on Stop.
		return errors.Join(fmt.Errorf("start kube-apiserver and etcd: %w", err), env.Stop())
	}
	// Last of all: nothing recorded is left to stop.
	stops = append(stops, func() error { return ignoreNotExist(os.Remove(filepath.Join(o.dir, childrenFile))) }, env.Stop)
	if err := recordChildren(o.dir, o.assets); err != nil { // etcd and kube-apiserver; kwok below
		return err
	}
	kubeconfig := filepath.Join(o.dir, "kubeconfig")
	adminCfg, err := writeAdminKubeconfig(env, kubeconfig)
	if err != nil {
		return err
	}
	stops = append(stops, func() error { return os.Remove(kubeconfig) })
	if ctx.Err() != nil {
		return nil
	}

	// The demo's controllers are the pod's process: they reconcile the
	// namespace's ConfigMaps, serve the endpoint on loopback (the pod's
	// "backoff" port, through kwok) and write the log kwok serves as the
	// container's.
	step("starting the demo's controllers (%d ConfigMaps in namespace %s)", o.keys, demo.DefaultNamespace)
	containerLog, err := localcluster.NewCRILog(filepath.Join(o.dir, "controller.log"))
	if err != nil {
		return err
	}
	demoLog, err := os.Create(filepath.Join(o.dir, "demo.log"))
	if err != nil {
		return err
	}
	ctrllog.SetLogger(demo.ErrorLogger(demoLog))
	demoCtx, stopDemo := context.WithCancel(context.Background())
	opts := demo.DefaultOptions()
	opts.RESTConfig, opts.Keys, opts.Listen = adminCfg, o.keys, "127.0.0.1:0"
	opts.Out, opts.ErrOut, opts.ControllerLog = demoLog, demoLog, containerLog
	d, err := demo.Start(demoCtx, opts)
	if err != nil {
		stopDemo()
		return errors.Join(fmt.Errorf("start the demo: %w", err), containerLog.Close(), demoLog.Close())
	}
	stops = append(stops, func() error {
		stopDemo()
		return errors.Join(d.Wait(), containerLog.Close(), demoLog.Close())
	})

	cs, err := cluster.NewClientset(adminCfg)
	if err != nil {
		return err
	}
	ns := demo.DefaultNamespace
	w := localcluster.Workload{Namespace: ns, Ports: []corev1.ContainerPort{{Name: "backoff", ContainerPort: localcluster.BackoffPort}}}
	if err := w.Create(ctx, cs); err != nil {
		return err
	}
	step("starting kwok: pod %s/%s's port backoff → the demo's endpoint %s", ns, localcluster.PodName, d.Addr())
	kwokDir := filepath.Join(o.dir, "kwok")
	if err := os.MkdirAll(kwokDir, 0o700); err != nil {
		return err
	}
	k, err := localcluster.StartKwok(localcluster.KwokOptions{
		Assets: o.assets, Kubeconfig: kubeconfig, Dir: kwokDir,
		Namespace: ns, Pod: localcluster.PodName,
		Forwards: []localcluster.PortForward{{PodPort: localcluster.BackoffPort, Target: d.Addr()}},
		Logs:     []localcluster.PodLog{{Namespace: ns, Pod: localcluster.PodName, File: containerLog.Path()}},
	})
	if err != nil {
		return err
	}
	stops = append(stops, k.Stop)
	if err := recordChildren(o.dir, o.assets); err != nil {
		return err
	}
	if err := waitPodRunning(ctx, cs, ns); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("%w (kwok's log: %s)", err, k.LogPath())
	}

	printTry(out, kubeconfig, o.pluginDir, o.dir)
	select {
	case <-ctx.Done():
		return nil
	case err := <-k.Exited():
		return fmt.Errorf("kwok exited (%v); its log: %s", err, k.LogPath())
	}
}

// writeAdminKubeconfig adds a system:masters user to env and writes its
// kubeconfig to path.
func writeAdminKubeconfig(env *envtest.Environment, path string) (*rest.Config, error) {
	u, err := env.AddUser(envtest.User{Name: "try-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return nil, fmt.Errorf("add the admin user: %w", err)
	}
	kc, err := u.KubeConfig()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, kc, 0o600); err != nil {
		return nil, err
	}
	return u.Config(), nil
}

// waitPodRunning waits up to a minute for kwok to run the pod.
func waitPodRunning(ctx context.Context, cs localcluster.Clients, ns string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		err := localcluster.PodRunning(ctx, cs, ns)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kwok has not run the pod within a minute: %w", cmp.Or(err, ctx.Err()))
		case <-tick.C:
		}
	}
}

// ignoreNotExist is err unless the file was not there.
func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
