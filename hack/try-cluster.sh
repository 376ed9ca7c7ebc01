#!/usr/bin/env bash
# try-cluster.sh starts, on this machine, a cluster to try the plugin's cluster
# path on: the e2e tier's kube-apiserver and etcd, kwok as the kubelet of one
# fake node, and a Deployment → ReplicaSet → Pod whose container port
# "backoff" kwok forwards to the demo's controllers (instrumented, run by this
# script's process against that API server). It writes a kubeconfig, prints
# the commands to try (top deploy/demo, why configmap/…, kick, forget, …) and
# serves until Ctrl-C, which stops everything it started. Everything listens
# on 127.0.0.1.
#
#   hack/try-cluster.sh
#
# It needs only Go. The binaries come from hack/k8s-bin.sh's cache
# (~/.cache/kubectl-backoff/k8s-bin): the first run builds them from the Go
# module proxy, about 40 minutes on two cores, with progress on stderr;
# later runs start in seconds. kubectl is used when it is on PATH; without
# it, the printed commands call kubectl-backoff itself.
#
# The plugin tried is this tree's, built into the state directory
# (~/.cache/kubectl-backoff/try-cluster, or $TRY_CLUSTER_DIR) with the
# kubeconfig and the logs. A second run while one is up is refused; a run
# after one starts afresh. Flags after the script's name go to
# test/trycluster (-keys N: the demo's objects, 60 unless given).
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${TRY_CLUSTER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-backoff/try-cluster}"
echo "try-cluster: the Kubernetes binaries (hack/k8s-bin.sh; the first time about 40 minutes on two cores)" >&2
assets=$(K8S_BIN_KUBECTL=optional hack/k8s-bin.sh)

echo "try-cluster: building this tree's kubectl-backoff and test/trycluster into $dir" >&2
mkdir -p "$dir/bin"
go build -o "$dir/bin/kubectl-backoff" .
go build -o "$dir/trycluster" ./test/trycluster

# exec: Ctrl-C reaches the starter itself, which stops what it started.
exec "$dir/trycluster" -assets "$assets" -dir "$dir" -plugin-dir "$dir/bin" "$@"
