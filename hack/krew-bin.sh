#!/usr/bin/env bash
# krew-bin.sh builds krew (kubectl-krew) and krew's own manifest validator
# (validate-krew-manifest, what the krew-index CI runs) from the Go module
# proxy into a cache directory keyed by the version, reuses it when complete,
# and prints its path on stdout. The e2e tier's krew test installs the release
# archive through it (about 40 seconds cold; nothing else is built).
#
#   KREW_BIN=$(hack/krew-bin.sh) go test -tags e2e -run E2EKrew -v -count=1 ./test/e2e
#
# Progress goes to stderr. K8S_BIN_CACHE overrides the cache root, shared with
# hack/k8s-bin.sh. Builds are serialised with flock.
set -euo pipefail

KREW_VERSION=v0.4.3

root="${K8S_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-backoff/k8s-bin}"
dir="$root/krew-${KREW_VERSION}"
mkdir -p "$dir"

log() { echo "krew-bin: $*" >&2; }

complete() { [ -x "$dir/kubectl-krew" ] && [ -x "$dir/validate-krew-manifest" ]; }

exec 9>"$dir/.lock"
flock 9
if complete; then
	echo "$dir"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The caller's GOFLAGS (-count=1 in CI) do not apply to a build.
export GOFLAGS=-buildvcs=false GOTOOLCHAIN=local CGO_ENABLED=0
start=$SECONDS
log "building krew $KREW_VERSION"
# krew's version command prints these; its release build sets them the same way.
v=sigs.k8s.io/krew/internal/version
GOBIN="$work" go install -trimpath -ldflags "-s -w -X $v.gitTag=$KREW_VERSION" \
	"sigs.k8s.io/krew/cmd/krew@$KREW_VERSION" \
	"sigs.k8s.io/krew/cmd/validate-krew-manifest@$KREW_VERSION" >&2
# kubectl finds plugins by their file name.
mv "$work/validate-krew-manifest" "$dir/validate-krew-manifest"
mv "$work/krew" "$dir/kubectl-krew"
log "ready in $((SECONDS - start))s: $dir"
echo "$dir"
