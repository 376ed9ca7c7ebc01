package instrument_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// exampleGet serves one GET and decodes the answer into out.
func exampleGet(h http.Handler, target string, out any) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil))
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		panic(err)
	}
}

// A controller-runtime controller: wrap its options and its reconciler. With a
// manager, the same two calls go into the builder:
//
//	ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).
//		WithOptions(probe.ControllerOptions()).
//		Complete(probe.Reconciler(r))
func ExampleNew() {
	reg := instrument.NewRegistry() // programs leave Registry unset: DefaultRegistry
	probe := instrument.New("configmap", instrument.Options{Registry: reg, Object: &corev1.ConfigMap{}})
	r := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, nil
	})
	_, err := controller.NewTypedUnmanaged("configmap", probe.ControllerOptions(controller.Options{
		Reconciler:         probe.Reconciler(r),
		SkipNameValidation: ptr.To(true),
	}))
	if err != nil {
		fmt.Println(err)
		return
	}

	var list api.ControllerList
	exampleGet(instrument.NewHandler(instrument.HandlerOptions{Registry: reg}), "/debug/backoff/v1/controllers", &list)
	for _, c := range list.Controllers {
		fmt.Printf("%s reconciles %s; limiter %s; can forget: %v\n",
			c.Name, c.Kind.Kind, c.Limiter.Description, c.Capabilities.CanForget)
	}
	// Output:
	// configmap reconciles ConfigMap; limiter item-exponential 5ms..16m40s; can forget: true
}

// A client-go controller: wrap its limiter and queue, and run each sync
// through Track.
func ExampleNewTyped() {
	reg := instrument.NewRegistry()
	probe := instrument.NewTyped[string]("foo", instrument.TypedOptions[string]{
		Registry:         reg,
		UsePriorityQueue: ptr.To(false), // a classic client-go queue
	})
	queue := probe.Queue(workqueue.NewTypedRateLimitingQueue(probe.RateLimiter(nil)))
	defer queue.ShutDown()

	queue.Add("default/foo")
	key, _ := queue.Get()
	if err := probe.Track(key, func() error { return errors.New("connection refused") }); err != nil {
		queue.AddRateLimited(key)
	} else {
		queue.Forget(key)
	}
	queue.Done(key)

	var k api.KeyDetail
	exampleGet(instrument.NewHandler(instrument.HandlerOptions{Registry: reg}), "/debug/backoff/v1/key?key=default/foo", &k)
	fmt.Printf("%s: %d failure, retry in %v (%s): %s\n", k.Key.Key, k.Failures, k.Delay.Duration, k.DelaySource, k.LastError.Message)
	// Output:
	// default/foo: 1 failure, retry in 5ms (item-exponential): connection refused
}

// The endpoint mounts on any mux under its prefix.
func ExampleHandler() {
	reg := instrument.NewRegistry()
	probe := instrument.New("widget", instrument.Options{Registry: reg})
	probe.RateLimiter(nil).When(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "w1"}})

	mux := http.NewServeMux()
	// instrument.Handler() serves DefaultRegistry; this one serves reg, read-only.
	mux.Handle(api.DefaultPrefix, instrument.NewHandler(instrument.HandlerOptions{Registry: reg, ReadOnly: true}))
	// A program would now serve mux: http.ListenAndServe("127.0.0.1:8082", mux).

	var list api.KeyList
	exampleGet(mux, "/debug/backoff/v1/keys?q=w1&sort=failures", &list)
	for _, k := range list.Items {
		fmt.Printf("%s %s: %d failure\n", k.Controller, k.Key, k.Failures)
	}
	fmt.Printf("%d of %d keys match\n", list.Matched, list.Total)
	// Output:
	// widget default/w1: 1 failure
	// 1 of 1 keys match
}

// The endpoint on its own loopback listener, reachable only through
// port-forward. With a manager it is one line, and it serves on standby
// replicas too (it needs no leader election):
//
//	err := mgr.Add(instrument.Server("")) // 127.0.0.1:8082
//
// or, on the metrics server, behind its TLS and authn/authz filter:
//
//	err := mgr.AddMetricsServerExtraHandler(api.DefaultPrefix, instrument.Handler())
func ExampleServer() {
	reg := instrument.NewRegistry()
	instrument.New("widget", instrument.Options{Registry: reg})
	srv := instrument.NewServer("127.0.0.1:0", instrument.NewHandler(instrument.HandlerOptions{Registry: reg}))
	if err := srv.Listen(); err != nil { // bind now, to learn the port
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()

	resp, err := http.Get("http://" + srv.Addr().String() + api.DefaultPrefix + "v1/controllers")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"))
	cancel()
	fmt.Println("stopped:", <-done)
	// Output:
	// 200 OK application/json
	// stopped: <nil>
}
