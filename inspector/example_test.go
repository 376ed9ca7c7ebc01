package inspector_test

import (
	"context"
	"fmt"

	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A program outside this module attaches to a named workload: every type
// AttachConfig is written in has a name here (this file is a package of
// its own, as such a program is).
func ExampleAttach() {
	ctx := context.Background()
	target, err := inspector.ParseTarget("deploy/widget-controller", "")
	if err != nil {
		panic(err)
	}
	var restConfig *rest.Config // from the user's kubeconfig
	s, err := inspector.Attach(ctx, inspector.AttachConfig{
		REST:      restConfig,
		Target:    target,
		Namespace: "widget-system",
		Port:      inspector.PortSpec("backoff"),
		Tunnel:    inspector.TunnelOptions{},
	})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	l, err := s.Keys(ctx, inspector.KeyQuery{Controller: "widget", Sort: api.SortNext})
	if err != nil {
		panic(err)
	}
	for _, k := range l.Items {
		fmt.Println(k.Pod, k.Key.Key, k.State)
	}
}
