#!/usr/bin/env bash
# release.sh builds the release: per platform a stripped, static binary in an
# archive (.tar.gz, .zip for windows) with LICENSE, a checksums.txt, and the
# krew manifest rendered from its template plugins/backoff.yaml (version, and
# per platform the archive's uri and sha256), checked by krew's own validator.
#
#   hack/release.sh                          # every platform, into dist/
#   hack/release.sh linux/amd64              # just these platforms (CI)
#   VERSION=v0.1.0 hack/release.sh -o out    # another version or directory
#
# Reproducible: building one commit twice gives byte-identical archives. The
# version, commit and date stamped into cli.Version/Commit/Date come from git
# (the date is the commit's, never the clock's); -trimpath drops local paths;
# archive entries have fixed names, order, owners (0/0), modes and mtimes (the
# commit's); gzip writes no name or time; zip no extra fields. What remains is
# the Go toolchain: the same `go version` gives the same bytes.
#
# VERSION defaults to the tag at HEAD, else a Go pseudo-version of HEAD
# (v0.0.0-YYYYMMDDhhmmss-abcdefabcdef, what `go install …@<commit>` reports).
# Progress goes to stderr, a line before each step and one when it is done
# (with each binary's and archive's size); the directory's path is printed on
# stdout. KREW_BIN names a krew build to validate with instead of
# hack/krew-bin.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."

all_platforms="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
out=dist
usage() { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	-o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "release: unknown flag $1 (see hack/release.sh --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
platforms="${*:-$all_platforms}"
for p in $platforms; do
	case " $all_platforms " in
	*" $p "*) ;;
	*) echo "release: unknown platform $p; one of: $all_platforms" >&2; exit 2 ;;
	esac
done

log() { echo "release: $*" >&2; }
# mb is a file's size in MB (10^6 bytes), as the docs give sizes.
mb() { awk -v b="$(wc -c <"$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

commit=$(git rev-parse HEAD)
epoch=$(git log -1 --format=%ct HEAD)
date=$(TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	log "warning: uncommitted changes; the archives are not the commit's (stamped ${commit}-dirty)"
	commit="${commit}-dirty"
fi
if [ -z "${VERSION:-}" ]; then
	VERSION=$(git describe --tags --exact-match --match 'v*' HEAD 2>/dev/null) ||
		VERSION="v0.0.0-$(TZ=UTC git log -1 --date=format-local:%Y%m%d%H%M%S --format=%cd HEAD)-$(git rev-parse --short=12 HEAD)"
fi
if ! [[ $VERSION =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release: VERSION=$VERSION is not a semantic version like v0.1.0 (krew requires one)" >&2
	exit 2
fi

# The output directory holds only this release: refuse to empty a directory
# that is not one.
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ] && [ ! -f "$out/checksums.txt" ]; then
	echo "release: $out is not empty and holds no checksums.txt: not a release directory, not touching it" >&2
	exit 2
fi
rm -rf "$out"
mkdir -p "$out"
outabs=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Only what is said here shapes the binary: not the caller's GOFLAGS (-race,
# -count=1 in CI), nor micro-architecture levels or experiments.
unset GOFLAGS GOAMD64 GOARM64 GOEXPERIMENT
export CGO_ENABLED=0 GOTOOLCHAIN=local
pkg=github.com/kubectl-backoff/kubectl-backoff/internal/cli
# -buildvcs=false: the stamps say which commit; the toolchain's own VCS record
# would also note untracked files, which the archives do not depend on.
ldflags="-s -w -X $pkg.Version=$VERSION -X $pkg.Commit=$commit -X $pkg.Date=$date"
log "$VERSION (commit $commit, $date) with $(go env GOVERSION)"

for p in $platforms; do
	goos=${p%/*} goarch=${p#*/}
	bin=kubectl-backoff
	[ "$goos" = windows ] && bin=kubectl-backoff.exe
	stage="$work/${goos}_${goarch}"
	mkdir -p "$stage"
	start=$SECONDS
	log "building $p: the plugin binary, then its archive (the first build for a platform compiles the Kubernetes libraries: 5-20 minutes cold on 2 cores, with no output; seconds warm)"
	GOOS=$goos GOARCH=$goarch go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$stage/$bin" .
	cp LICENSE "$stage/LICENSE"
	chmod 0755 "$stage/$bin"
	chmod 0644 "$stage/LICENSE"
	touch -d "@$epoch" "$stage/$bin" "$stage/LICENSE"
	name="kubectl-backoff_${goos}_${goarch}"
	if [ "$goos" = windows ]; then
		rm -f "$out/$name.zip"
		# -X: no extra fields (uid/gid, extended times); DOS times are local
		# time, hence TZ=UTC.
		(cd "$stage" && TZ=UTC zip -q -X -D -9 "$outabs/$name.zip" LICENSE "$bin")
		archive=$name.zip
	else
		tar --sort=name --format=ustar --owner=0 --group=0 --numeric-owner \
			--mtime="@$epoch" -C "$stage" -cf - LICENSE "$bin" | gzip -9 -n >"$out/$name.tar.gz"
		archive=$name.tar.gz
	fi
	log "$p done in $((SECONDS - start))s: $archive, binary $(mb "$stage/$bin"), archive $(mb "$out/$archive")"
done

log "writing checksums.txt and the krew manifest backoff.yaml"
(cd "$out" && shopt -s nullglob && sha256sum -- *.tar.gz *.zip | LC_ALL=C sort -k2 >checksums.txt)

# The manifest: spec.version and, per platform of the template whose archive
# was built, the uri (its release tag replaced) and the archive's sha256.
# Platforms not built are left out; an archive the template does not name is
# an error (the two lists must not drift apart).
awk -v ver="$VERSION" -v commit="$commit" -v sums="$out/checksums.txt" '
function fail(msg) { print "release: plugins/backoff.yaml line " NR ": " msg > "/dev/stderr"; bad = 1; exit 1 }
function flush(   i) {
	if (n > 0 && archive in sha) { for (i = 1; i <= n; i++) print buf[i]; used[archive] = 1; kept++ }
	n = 0; archive = ""
}
BEGIN {
	while ((getline l < sums) > 0) { split(l, f, "  "); sha[f[2]] = f[1] }
	print "# Rendered by hack/release.sh from plugins/backoff.yaml for " ver " (commit " commit ")."
}
NR == 1, !/^#/ { if (/^#/) next }
inplat && (/^  - / || /^[^ ]/ || /^  [^ -]/) { flush(); if (!/^  - /) inplat = 0 }
inplat {
	if ($1 == "uri:") {
		archive = $2; sub(/.*\//, "", archive)
		if ($0 !~ /\/download\/[^\/]+\//) fail("uri has no /download/TAG/: " $2)
		sub(/\/download\/[^\/]+\//, "/download/" ver "/")
	} else if ($1 == "sha256:") {
		if (archive == "") fail("sha256 before uri")
		match($0, /^ */); $0 = substr($0, 1, RLENGTH) "sha256: \"" ((archive in sha) ? sha[archive] : "") "\""
	}
	buf[++n] = $0; next
}
/^  version:/ { print "  version: " ver; next }
/^  platforms:/ { inplat = 1 }
{ print }
END {
	if (bad) exit 1
	flush()
	for (a in sha) if (!(a in used)) { print "release: plugins/backoff.yaml has no platform whose uri names " a > "/dev/stderr"; exit 1 }
	if (kept == 0) { print "release: no platform of plugins/backoff.yaml was built" > "/dev/stderr"; exit 1 }
}' plugins/backoff.yaml >"$out/backoff.yaml"

# krew's own validator (what krew-index runs on a submitted manifest):
# structure, semver, one platform per os/arch. -skip-install: the uris point at
# a release not published yet; the e2e tier installs the archive instead.
# KREW_BIN: a krew build of one's own (as the e2e tier takes it); otherwise
# hack/krew-bin.sh builds krew once, under a minute.
log "checking backoff.yaml with krew's validate-krew-manifest${KREW_BIN:+ from $KREW_BIN}"
krew=${KREW_BIN:-$(hack/krew-bin.sh)}
"$krew/validate-krew-manifest" -manifest "$out/backoff.yaml" -skip-install 2>"$work/validate.log" || {
	cat "$work/validate.log" >&2
	echo "release: krew rejects $out/backoff.yaml" >&2
	exit 1
}
log "krew validate-krew-manifest: $out/backoff.yaml OK"
log "done: $(cd "$out" && ls | tr '\n' ' ')"
echo "$out"
