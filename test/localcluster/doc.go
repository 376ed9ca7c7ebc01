// Package localcluster starts the cluster the end-to-end tier runs against,
// and that test/trycluster (hack/try-cluster.sh) starts for a person to try
// the plugin's cluster path: envtest's etcd and kube-apiserver, configured for
// a port-forward over loopback; kwok as the kubelet of a fake node, sending
// the pod's container ports to local processes and serving local files as its
// containers' logs; and the Deployment → ReplicaSet → Pod chain the plugin
// attaches to (no controller-manager runs: each level is written here).
//
// The binaries come from hack/k8s-bin.sh's cache (its path is assets):
//
//	env := localcluster.NewEnvironment(assets)
//	cfg, err := env.Start()
//	...
//	err = localcluster.Workload{Namespace: "demo", Ports: ports}.Create(ctx, cs)
//	k, err := localcluster.StartKwok(localcluster.KwokOptions{Assets: assets, ...})
//	defer k.Stop()
//
// Everything listens on 127.0.0.1.
package localcluster
