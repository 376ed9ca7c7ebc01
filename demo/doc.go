// Package demo runs controllers with a flaky dependency that you can watch
// back off, on the real controller-runtime machinery (its queues, rate
// limiters and workers), instrumented with package instrument. By default
// everything is in the process: the objects live in controller-runtime's fake
// client and reach the controllers through channel sources, so no cluster is
// needed.
//
//	opts := demo.DefaultOptions()
//	opts.Listen = "127.0.0.1:0"
//	d, err := demo.Start(ctx, opts)
//	if err != nil {
//		return err
//	}
//	fmt.Println(d.URL()) // http://127.0.0.1:40517/debug/backoff/
//	return d.Wait()      // until ctx is done
//
// # Scenarios
//
// Each scenario is its own controller, named after it, reconciling
// ConfigMaps demo/<controller>-NNNNN:
//
//   - outage: every object is synced with an inventory API that answers
//     "503 Service Unavailable" for 2 minutes out of every 5. Each outage
//     opens with a resync, so hundreds of keys back off together on the
//     classic queue's max(exponential, bucket) limiter; after recovery they
//     return to idle one by one as their retries come due.
//   - naive: objects lack spec.storageClass and the reconciler returns an
//     error forever, retried with an ever-growing delay.
//   - wellbehaved: the same objects, but the reconciler records a Ready=False
//     condition and returns a terminal error: failed, not retried.
//   - polling: waiting for an external resource, RequeueAfter 30s until it is
//     ready: scheduled, not failing.
//   - conflicts: now and then another writer gets in first and the update
//     fails with a real resourceVersion conflict; the next pass succeeds.
//   - slow: reconciles take seconds on two workers, so keys show running and
//     queued.
//
// Every few seconds a user edits one of a few naive keys: the event is
// reconciled at once, but the key's failure count (its backoff) is not
// reset. The naive keys nobody edits show their delay reaching the cap.
//
// Options.Speed divides every duration (the outage schedule, RequeueAfter,
// slow work, the limiters' base and cap, the bucket's rate), so a demo at
// speed 100 shows in seconds what takes minutes. With Kubeconfig, InCluster
// or RESTConfig the same controllers run under a manager against a real API
// server, on ConfigMaps labelled app.kubernetes.io/part-of=kubectl-backoff-demo
// in namespace demo, created if missing.
package demo
