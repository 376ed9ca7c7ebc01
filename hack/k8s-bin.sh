#!/usr/bin/env bash
# k8s-bin.sh builds, from the Go module proxy alone, the binaries the e2e tier
# needs (kube-apiserver and kube-controller-manager, built together from one
# module, etcd, kwok plus kwok's stage definitions) into a cache
# directory keyed by their versions, reuses it when complete, and prints its
# path on stdout: the directory works as KUBEBUILDER_ASSETS for envtest.
#
#   KUBEBUILDER_ASSETS=$(hack/k8s-bin.sh) go test -tags e2e -run E2E -v -count=1 ./test/e2e
#
# Progress goes to stderr. K8S_BIN_CACHE overrides the cache root;
# K8S_BIN_KUBECTL=optional lets a machine without kubectl have the rest. Builds are
# serialised with flock so two concurrent callers do not build twice.
set -euo pipefail

K8S_VERSION=v1.37.2
ETCD_VERSION=v3.7.3
KWOK_VERSION=v0.8.0

root="${K8S_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-backoff/k8s-bin}"
dir="$root/${K8S_VERSION}-etcd${ETCD_VERSION#v}-kwok${KWOK_VERSION#v}"
mkdir -p "$dir"

log() { echo "k8s-bin: $*" >&2; }

# complete reports whether every artefact is already in the cache.
complete() {
	[ -x "$dir/kube-apiserver" ] && [ -x "$dir/kube-controller-manager" ] && [ -x "$dir/etcd" ] && [ -x "$dir/kwok" ] &&
		[ -f "$dir/kwok-stages.yaml" ] && [ -e "$dir/kubectl" ]
}

exec 9>"$dir/.lock"
if ! flock -n 9; then
	# Another build of the same versions holds the lock (a CI run, the
	# e2e tier, another try-cluster): say so, or the wait looks like a hang.
	log "another build of these binaries is running (lock $dir/.lock); waiting for it to finish, then using its result"
	flock 9
fi
if complete; then
	echo "$dir"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Module and build caches are shared with the user's; only GOFLAGS from the
# caller (e.g. -count=1 in CI) are dropped, they do not apply to builds.
export GOFLAGS=-buildvcs=false GOTOOLCHAIN=local CGO_ENABLED=0
start=$SECONDS

if [ ! -x "$dir/etcd" ]; then
	log "building etcd $ETCD_VERSION"
	mkdir -p "$work/etcd"
	cat >"$work/etcd/main.go" <<'EOF'
// Command etcd is etcd's server, built from its module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
	(
		cd "$work/etcd"
		go mod init k8s-bin/etcd >/dev/null 2>&1
		go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2
		go mod tidy >&2
		go build -trimpath -ldflags "-s -w" -o "$dir/etcd.tmp" .
	)
	mv "$dir/etcd.tmp" "$dir/etcd"
	log "etcd done at $((SECONDS - start))s"
fi

if [ ! -x "$dir/kwok" ] || [ ! -f "$dir/kwok-stages.yaml" ]; then
	log "building kwok $KWOK_VERSION"
	GOBIN="$work/gobin" go install "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
	mod=$(go env GOMODCACHE)/sigs.k8s.io/kwok@$KWOK_VERSION/kustomize/stage
	# The stages kwok needs to make nodes and pods look alive.
	{
		for f in node/fast/node-initialize.yaml node/heartbeat/node-heartbeat.yaml \
			pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
			echo "---"
			cat "$mod/$f"
		done
	} >"$dir/kwok-stages.yaml.tmp"
	mv "$dir/kwok-stages.yaml.tmp" "$dir/kwok-stages.yaml"
	mv "$work/gobin/kwok" "$dir/kwok"
	log "kwok done at $((SECONDS - start))s"
fi

if [ ! -x "$dir/kube-apiserver" ] || [ ! -x "$dir/kube-controller-manager" ]; then
	# One module, one build: the controller manager shares nearly every package
	# with the API server, so it costs a few minutes more, not a second build.
	log "building kube-apiserver and kube-controller-manager $K8S_VERSION (the long step: 25-45 minutes cold on 2 cores)"
	m="$work/apiserver"
	mkdir -p "$m"
	cat >"$m/tools.go" <<'EOF'
//go:build tools

// Package tools pins the main packages built from k8s.io/kubernetes.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
EOF
	(
		cd "$m"
		go mod init k8s-bin/apiserver >/dev/null 2>&1
		# k8s.io/kubernetes requires its staging modules at v0.0.0; replace each
		# with the published module of the matching minor version.
		kgomod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
			sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
		staging=$(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" { print $1 }' "$kgomod" | sort -u)
		{
			echo "require k8s.io/kubernetes $K8S_VERSION"
			for p in $staging; do
				echo "replace $p => $p v0${K8S_VERSION#v1}"
			done
		} >>go.mod
		go mod tidy >&2
		cv=k8s.io/component-base/version
		minor=$(echo "$K8S_VERSION" | cut -d. -f2)
		mkdir -p "$dir/.build"
		go build -trimpath -tags tools -o "$dir/.build/" \
			-ldflags "-s -w -X $cv.gitVersion=$K8S_VERSION -X $cv.gitMajor=1 -X $cv.gitMinor=$minor" \
			k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
	)
	mv "$dir/.build/kube-controller-manager" "$dir/kube-controller-manager"
	mv "$dir/.build/kube-apiserver" "$dir/kube-apiserver"
	rmdir "$dir/.build"
	log "kube-apiserver and kube-controller-manager done at $((SECONDS - start))s"
fi

# envtest also looks for kubectl in KUBEBUILDER_ASSETS.
if [ ! -e "$dir/kubectl" ]; then
	if k=$(command -v kubectl); then
		ln -sf "$k" "$dir/kubectl"
	elif [ "${K8S_BIN_KUBECTL:-}" = optional ]; then
		# hack/try-cluster.sh runs without kubectl (the plugin alone).
		log "kubectl not on PATH: not linked (the e2e tier needs it; hack/try-cluster.sh does not)"
	else
		log "kubectl not on PATH: the e2e tier needs it"
		exit 1
	fi
fi

log "ready in $((SECONDS - start))s: $dir"
echo "$dir"
