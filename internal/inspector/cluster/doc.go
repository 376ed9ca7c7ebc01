// Package cluster is how kubectl backoff reaches a controller through the
// API server: it resolves a TARGET (pod/NAME, deploy/NAME, sts/NAME,
// rs/NAME, -l SELECTOR, or discovery of the instrumented pods) to running
// pods and the port their endpoint listens on, and forwards to them
// through pods/portforward, as kubectl port-forward does (the websocket
// tunnel first, SPDY when the API server predates it). A Tunnel keeps one
// forward alive: it reconnects with backoff and follows a restarted or
// rolled-out pod. It knows nothing of the endpoint behind the port;
// inspector.Attach puts a client on each tunnel.
//
//	cs, err := cluster.NewClientset(restConfig)
//	if err != nil {
//		return err
//	}
//	target, err := cluster.ParseTarget("deploy/my-controller", "")
//	if err != nil {
//		return err
//	}
//	pods, err := cluster.Resolve(ctx, cs, target, "my-system", false, "")
//	if err != nil {
//		return err // says what was looked for, and why nothing was found
//	}
//	search := cluster.Search{Target: target, Namespace: "my-system"}
//	t := cluster.NewTunnel(restConfig, cluster.NewPodSlots(cs, search, pods).Resolver(pods[0]), cluster.TunnelOptions{})
//	go t.Run(ctx)
//	addr, err := t.Addr(ctx) // "127.0.0.1:PORT", the pod's endpoint
//
// Errors say what to do: a refused port-forward is a *PermissionError
// naming the verb, resource and namespace RBAC must grant; a pod that is
// gone is ErrPodNotFound.
package cluster
