// Package clustertest is a test double for the API server's
// pods/portforward: the kubelet's real port-forward server
// (k8s.io/cri-streaming) behind an httptest server, over SPDY and the
// websocket tunnel kubectl tries first. Tests of inspector/cluster's
// forwards and tunnels, and of inspector's Attach, reach real endpoints
// through it.
//
//	pf := clustertest.NewPortForwardServer(t, endpointAddr, 8082, "demo/ctrl-0")
//	pf.Set(func(s *clustertest.PortForwardServer) { s.Websocket = true })
//	fwd, err := cluster.Forward(ctx, pf.Config(), "demo", "ctrl-0", 8082)
//
// It links testing, so only tests import it.
package clustertest
