// Package inspector is the v1 client behind `kubectl backoff`: it attaches
// to a controller's pods through port-forwards (internal/inspector/cluster's,
// kept alive across restarts and rollouts), or to one address, and reads the
// endpoints as one Session: keys, a key, controllers, error groups, forget
// and forget-all, a watch of the keys. It never prints and judges nothing:
// everything it returns is the endpoint's data (internal/inspector/describe
// reads and explains a key over it).
//
// With no Target, Attach discovers the instrumented pod of a namespace (a
// *MultiplePodsError lists them when there are several):
//
//	s, err := inspector.Attach(ctx, inspector.AttachConfig{
//		REST: restConfig, Namespace: "my-system",
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	l, err := s.Keys(ctx, inspector.KeyQuery{Controller: "widget", Sort: api.SortNext})
//	if err != nil {
//		return err
//	}
//	for _, k := range l.Items {
//		fmt.Println(k.Pod, k.Key.Key, k.State) // my-system/ctrl-0 default/my-widget backoff
//	}
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
package inspector
