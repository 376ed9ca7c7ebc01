// Package instrument makes a controller's retry state visible per key.
//
// When a reconcile fails, the key goes back on the work queue through a rate
// limiter and waits — invisibly — for a delay that grows from milliseconds to
// about 16 minutes. A Probe decorates the controller's rate limiter, queue and
// reconciler, records per key the consecutive failures, the next retry time,
// the delay and which limiter chose it, the last errors and whether a reconcile
// is running, and serves it over a versioned JSON endpoint that
// `kubectl backoff` reads through port-forward.
//
// # controller-runtime
//
//	probe := instrument.New("widget", instrument.Options{
//		Object: &v1.Widget{},
//		Scheme: mgr.GetScheme(), // where your CRD's kind is registered
//	})
//	if err := ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).
//		WithOptions(probe.ControllerOptions()). // wraps RateLimiter and NewQueue
//		Complete(probe.Reconciler(r)); err != nil {
//		return err
//	}
//	// Serve on its own loopback listener, reachable only through port-forward ...
//	if err := mgr.Add(instrument.Server("")); err != nil {
//		return err
//	}
//	// ... or instead on the metrics server, behind its TLS and authn/authz filter:
//	// err := mgr.AddMetricsServerExtraHandler(instrument.DefaultPrefix, instrument.Handler())
//
// ControllerOptions takes the controller's own options, if it has any, and
// keeps them: probe.ControllerOptions(controller.Options{MaxConcurrentReconciles: 4}).
// It never changes the controller: UsePriorityQueue and every other option
// are left as given, so the manager's ctrl.Options{Controller: ...} still
// applies, and the probe follows the queue controller-runtime chose (the
// README has a table, option by option). Scheme is where the object's kind is looked up
// (client-go's scheme, which knows only built-in kinds, when unset): clients
// find the controller of an object by that kind. A custom limiter is wrapped as it is (its delays
// report source "limiter"), and so is RateLimiter(myLimiter). Options.Jitter
// spreads retries by a random ±25 % (or what it says) so that keys that
// failed together do not come back as a herd.
//
// # client-go
//
// A sample-controller style controller wraps its limiter and queue, and runs
// each sync through Track:
//
//	probe := instrument.NewTyped[string]("foo", instrument.TypedOptions[string]{UsePriorityQueue: ptr.To(false)})
//	queue := probe.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(
//		probe.RateLimiter(nil), workqueue.TypedRateLimitingQueueConfig[string]{Name: "foo"}))
//	...
//	err := probe.Track(key, func() error { return c.syncHandler(ctx, key) })
//
// # The endpoint
//
//	curl -s localhost:8082/debug/backoff/v1/controllers
//	curl -s 'localhost:8082/debug/backoff/v1/keys?state=backoff&sort=failures&limit=20'
//	curl -s 'localhost:8082/debug/backoff/v1/key?controller=widget&key=default/w1'
//	curl -s 'localhost:8082/debug/backoff/v1/errors?state=backoff'
//	curl -s -XPOST localhost:8082/debug/backoff/v1/forget -H 'Content-Type: application/json' \
//		-d '{"controller":"widget","keys":["default/w1"],"requeue":true}'
//
// Every response carries serverTime, so clients count down with the pod's
// clock, not their own. Errors share one shape:
// {"error":{"code":400,"reason":"BadRequest","message":"parameter \"sort\": ..."}}.
//
// Looking must not hurt the controller. A list (v1/keys, v1/errors,
// v1/controllers) copies one shard of the store at a time and filters,
// sorts and groups outside the lock; at most MaxConcurrentLists run at once
// and the rest are answered 429 with Retry-After; a page keeps at most
// 10,000 small rows (the first or the last keys; the middle is reached with
// the continue token), so its memory does not grow with the keys tracked. A
// regular expression filter is bounded by its compiled program and by one
// second of matching per request.
//
// Every forget is audited: its reason and who asked (the user an authn
// filter put on the request, see package authfilter, else the client's
// claim marked unverified) go to the key's history, the log line, and with
// Options.EventRecorder an Event on the object.
//
// A web page can reach a port-forwarded port: the handler refuses a foreign
// Origin, and a Host that is not loopback, localhost, the address the
// request came in on or in HandlerOptions.AllowedHosts (set that for the
// metrics server's Service name); forget takes only application/json.
//
// # Guarantees
//
// The decorators delegate every call exactly once and never change a
// decision. Nothing on the controller's path does I/O or calls back into the
// queue (the priority queue calls When under its own lock). The store is
// sharded and bounded: MaxKeys keys (idle ones evicted first), idle keys
// expire after Retention, error text is truncated to 4 KiB and interned, and
// each key keeps its last 16 attempts.
package instrument
