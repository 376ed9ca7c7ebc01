// Command wqsecrets is a client-go work-queue controller of Secrets in
// sample-controller's pattern (processNextWorkItem, AddRateLimited, and
// utilruntime.HandleError(fmt.Errorf("error syncing '%s': %s, requeuing",
// key, err))) run against envtest's kube-apiserver; its log goes through
// klog as the flags say (-logtostderr, -add_dir_header, or
// component-base's --logging-format=json).
//
//	KUBEBUILDER_ASSETS=$(hack/k8s-bin.sh) go run ./wqsecrets --logging-format=json 2>&1 | tee wq-json.log
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	logsapi "k8s.io/component-base/logs/api/v1"
	_ "k8s.io/component-base/logs/json/register"
	"k8s.io/klog/v2"

	"sinks26/scenario"
)

// Controller is sample-controller's Controller, for Secrets.
type Controller struct {
	queue  workqueue.TypedRateLimitingInterface[string]
	synced cache.InformerSynced
	sync   *scenario.Reconciler
}

func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

// Run waits for the cache and runs two workers until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	defer utilruntime.HandleCrash()
	defer c.queue.ShutDown()
	klog.Info("Starting Secret stamp controller")
	klog.Info("Waiting for informer caches to sync")
	if ok := cache.WaitForCacheSync(ctx.Done(), c.synced); !ok {
		utilruntime.HandleError(fmt.Errorf("failed to wait for caches to sync"))
		return
	}
	klog.Info("Starting workers")
	for i := 0; i < 2; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	klog.Info("Started workers")
	<-ctx.Done()
	klog.Info("Shutting down workers")
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	err := func(key string) error {
		defer c.queue.Done(key)
		ns, name, err := cache.SplitMetaNamespaceKey(key)
		if err != nil {
			c.queue.Forget(key)
			utilruntime.HandleError(fmt.Errorf("invalid resource key: %s", key))
			return nil
		}
		out, err := c.sync.Sync(ctx, ns, name)
		if err != nil {
			c.queue.AddRateLimited(key)
			return fmt.Errorf("error syncing '%s': %s, requeuing", key, err.Error())
		}
		c.queue.Forget(key)
		if out.RequeueAfter > 0 {
			c.queue.AddAfter(key, out.RequeueAfter)
			klog.Infof("Rollout of '%s' not finished, checking again in %s", key, out.RequeueAfter)
			return nil
		}
		klog.Infof("Successfully synced '%s'", key)
		return nil
	}(key)
	if err != nil {
		utilruntime.HandleError(err)
	}
	return true
}

func main() {
	c := logsapi.NewLoggingConfiguration()
	logsapi.AddGoFlags(c, flag.CommandLine)
	kfs := flag.NewFlagSet("klog", flag.ExitOnError)
	klog.InitFlags(kfs)
	for _, n := range []string{"logtostderr", "add_dir_header", "alsologtostderr"} {
		f := kfs.Lookup(n)
		flag.Var(f.Value, n, f.Usage)
	}
	flag.Parse()
	if err := logsapi.ValidateAndApply(c, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer klog.Flush()
	env, cfg, err := scenario.Start()
	if err != nil {
		klog.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	if err := scenario.Prepare(ctx, cs); err != nil {
		klog.Fatal(err)
	}
	kind := scenario.Kind{Own: "secrets", Ref: "configmaps"}
	f := informers.NewSharedInformerFactoryWithOptions(cs, 30*time.Second,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = scenario.Managed + "=true" }))
	inf := f.Core().V1().Secrets().Informer()
	ctl := &Controller{
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		synced: inf.HasSynced,
		sync:   &scenario.Reconciler{CS: cs, Kind: kind},
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    ctl.enqueue,
		UpdateFunc: func(_, n interface{}) { ctl.enqueue(n) },
	})
	f.Start(ctx.Done())
	done := make(chan struct{})
	go func() { defer close(done); ctl.Run(ctx) }()
	scenario.Drive(ctx, cs, kind)
	cancel()
	<-done
}
