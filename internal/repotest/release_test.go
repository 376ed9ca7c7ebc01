package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// stubs writes executables named as the keys of scripts into a new
// directory, and returns it.
func stubs(t *testing.T, scripts map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/usr/bin/env bash\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runRelease runs release.sh for linux/amd64 with a go that writes a
// 2,500,000-byte binary at once and a krew validator that accepts, and
// returns its stderr and the release directory.
func runRelease(t *testing.T) (stderr, dist string) {
	t.Helper()
	for _, tool := range []string{"bash", "git", "tar", "gzip", "sha256sum", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("release.sh needs %s", tool)
		}
	}
	goStub := stubs(t, map[string]string{"go": `
case "$1" in
env) echo go1.26.8 ;;
build) while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done; head -c 2500000 /dev/zero >"$out" ;;
*) echo "go stub: $*" >&2; exit 1 ;;
esac`})
	krew := stubs(t, map[string]string{"validate-krew-manifest": `exit 0`})
	dist = filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("bash", filepath.Join(hackDir, "release.sh"), "-o", dist, "linux/amd64")
	cmd.Env = append(os.Environ(), "PATH="+goStub+string(os.PathListSeparator)+os.Getenv("PATH"), "KREW_BIN="+krew, "VERSION=v0.1.0")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, errOut.String())
	}
	return errOut.String(), dist
}

// TestReleaseSaysEachStep: before each slow step release.sh says what it
// builds (and, for a platform's first build, that it is silent for
// minutes), and when a platform is done its binary's and archive's sizes in
// MB, the unit the docs use.
func TestReleaseSaysEachStep(t *testing.T) {
	stderr, _ := runRelease(t)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^release: building linux/amd64: .*minutes cold on 2 cores, with no output`),
		regexp.MustCompile(`(?m)^release: linux/amd64 done in \d+s: kubectl-backoff_linux_amd64\.tar\.gz, binary 2\.5 MB, archive 0\.0 MB$`),
		regexp.MustCompile(`(?m)^release: writing checksums\.txt and the krew manifest backoff\.yaml$`),
		regexp.MustCompile(`(?m)^release: checking backoff\.yaml with krew's validate-krew-manifest`),
	} {
		if !want.MatchString(stderr) {
			t.Errorf("stderr has no line matching %s:\n%s", want, stderr)
		}
	}
	if b, d := strings.Index(stderr, "building linux/amd64"), strings.Index(stderr, "linux/amd64 done"); b < 0 || d < b {
		t.Errorf("want the building line before the done line:\n%s", stderr)
	}
}

// TestKrewManifestSaysWhatWorksWithoutCode: krew shows the description and
// caveats at install; they say what works with no change to the
// controller (why, --from-logs) before what instrumenting adds, and do not
// say the controller must be instrumented.
func TestKrewManifestSaysWhatWorksWithoutCode(t *testing.T) {
	_, dist := runRelease(t)
	raw, err := os.ReadFile(filepath.Join(dist, "backoff.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Spec struct {
			Description string `json:"description"`
			Caveats     string `json:"caveats"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	d, c := m.Spec.Description, m.Spec.Caveats
	for _, want := range []string{"why", "--from-logs", "no change to the controller", "Instrumenting"} {
		if !strings.Contains(d, want) {
			t.Errorf("description does not mention %q:\n%s", want, d)
		}
	}
	if strings.Index(d, "--from-logs") > strings.Index(d, "Instrumenting") {
		t.Errorf("description puts instrumenting before what works without it:\n%s", d)
	}
	for _, want := range []string{"kubectl backoff demo", "why", "--from-logs", "pods/log", "pods/portforward"} {
		if !strings.Contains(c, want) {
			t.Errorf("caveats do not mention %q:\n%s", want, c)
		}
	}
	if strings.Contains(strings.ToLower(c+d), "must be instrumented") {
		t.Errorf("the manifest still says the controller must be instrumented:\n%s\n%s", d, c)
	}
}
