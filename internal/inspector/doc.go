// Package inspector is the library behind `kubectl backoff`: it attaches to
// a controller's pods through inspector/cluster's port-forwards (kept alive
// across restarts and rollouts), calls the endpoints, reads the object
// behind a key and its events from the API server, and hands it all to
// inspector/explain for a plain-language diagnosis. It never prints:
// everything it returns is data.
//
//	target, err := cluster.ParseTarget("deploy/my-controller", "")
//	if err != nil {
//		return err
//	}
//	s, objects, err := inspector.Attach(ctx, inspector.AttachConfig{
//		REST: restConfig, Target: target, Namespace: "my-system",
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	d, err := s.Describe(ctx, "widget", "default/my-widget", objects)
//	if err != nil {
//		return err
//	}
//	fmt.Println(d.Diagnosis) // Backing off 4m12s after 17 consecutive failures: per-item exponential, ...
//
// Without a cluster, Direct talks to one endpoint address, e.g. the demo's:
//
//	s, err := inspector.Direct("http://127.0.0.1:8082", nil)
//
// # Replicas
//
// A Session queries every pod of the target. A replica whose controllers are
// all inactive is a standby (leader election) and is reported as such; the
// keys of several active replicas (shards) are merged, each naming its pod.
//
// # Explanations
//
// The words are the inspector/explain package's: Describe reads and
// explain.Explain judges, DiagnoseControllers reads v1/controllers and
// v1/errors and explain.DiagnoseController judges each controller. That
// package is pure (no transport), so a viewer can explain again later:
//
//	ds, err := s.DiagnoseControllers(ctx, "")
//	for _, d := range ds {
//		fmt.Println(d.Line()) // outage — 100 keys backing off since 08:01:00 on one transient error (…)
//	}
package inspector
