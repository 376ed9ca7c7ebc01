//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The plugin as its users get it: the release archive that hack/release.sh
// built, installed by the real krew (hack/krew-bin.sh) from the manifest the
// same command rendered, into a krew root of its own; then the real kubectl
// finds the installed `kubectl backoff`, which runs the demo and reads it.
// It needs no API server, so it runs beside TestE2E, not inside it:
//
//	hack/release.sh linux/amd64
//	KREW_BIN=$(hack/krew-bin.sh) RELEASE_DIST=$PWD/dist go test -tags e2e -run E2EKrew -v -count=1 ./test/e2e

// requireRelease returns krew's directory and the release directory, or
// skips the test (fails it in CI, which must run it) saying how to make them.
func requireRelease(t *testing.T) (krewBin, dist string) {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...) + "; run: hack/release.sh linux/amd64 && KREW_BIN=$(hack/krew-bin.sh) RELEASE_DIST=$PWD/dist go test -tags e2e -run E2EKrew -v -count=1 ./test/e2e"
		if os.Getenv("CI") == "true" {
			t.Fatal("e2e krew: " + msg + " (.ci/run does both)")
		}
		t.Skip("e2e krew: " + msg)
	}
	krewBin, dist = os.Getenv("KREW_BIN"), os.Getenv("RELEASE_DIST")
	if krewBin == "" || dist == "" {
		missing("KREW_BIN (krew's cache) or RELEASE_DIST (the release's directory) is not set")
	}
	if _, err := os.Stat(filepath.Join(krewBin, "kubectl-krew")); err != nil {
		missing("KREW_BIN=%s lacks kubectl-krew: %v", krewBin, err)
	}
	for _, f := range []string{"backoff.yaml", releaseArchive()} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			missing("RELEASE_DIST=%s lacks %s: %v", dist, f, err)
		}
	}
	return krewBin, dist
}

// releaseArchive is hack/release.sh's archive for this machine.
func releaseArchive() string {
	if runtime.GOOS == "windows" {
		return "kubectl-backoff_windows_" + runtime.GOARCH + ".zip"
	}
	return "kubectl-backoff_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
}

// krewUser runs kubectl with krew and krew's plugins first on PATH, in a
// krew root and home of their own, and no kubeconfig.
type krewUser struct{ env []string }

func (u krewUser) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	cmd.Env = u.env
	cmd.WaitDelay = 5 * time.Second
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	t.Logf("$ kubectl %s -> err=%v\n%s%s", strings.Join(args, " "), err, clip(string(out)), clip(errOut.String()))
	if err != nil {
		return string(out), fmt.Errorf("kubectl %s: %v: %s", strings.Join(args, " "), err, errOut.String())
	}
	return string(out), nil
}

func TestE2EKrew(t *testing.T) {
	krewBin, dist := requireRelease(t)
	manifestPath, archive := filepath.Join(dist, "backoff.yaml"), filepath.Join(dist, releaseArchive())
	manifest, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^  version: (v\S+)$`).FindSubmatch(manifest)
	if m == nil {
		t.Fatalf("%s has no spec.version", manifestPath)
	}
	version := string(m[1])

	dir := t.TempDir()
	root, home := filepath.Join(dir, "krew"), filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	u := krewUser{env: []string{
		"PATH=" + strings.Join([]string{krewBin, filepath.Join(root, "bin"), os.Getenv("PATH")}, string(os.PathListSeparator)),
		"HOME=" + home,
		"KREW_ROOT=" + root,
		"KREW_NO_UPGRADE_CHECK=1", // no call to GitHub
		"KUBECONFIG=" + filepath.Join(dir, "no-kubeconfig"),
	}}

	// krew checks the archive against the manifest's sha256 and extracts it
	// with the manifest's file rules.
	if _, err := u.run(t, "krew", "install", "--manifest="+manifestPath, "--archive="+archive); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(root, "store", "backoff", version)
	for _, f := range []string{"kubectl-backoff", "LICENSE"} {
		// krew's validate-krew-manifest requires the licence to be installed too.
		if _, err := os.Stat(filepath.Join(store, f)); err != nil {
			t.Errorf("krew did not install %s from the archive: %v", f, err)
		}
	}
	list, err := u.run(t, "plugin", "list", "--name-only")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list, "kubectl-backoff") {
		t.Fatalf("kubectl plugin list does not find kubectl-backoff in %s:\n%s", filepath.Join(root, "bin"), list)
	}
	if link, err := os.Readlink(filepath.Join(root, "bin", "kubectl-backoff")); err != nil || !strings.HasPrefix(link, store) {
		t.Errorf("krew's link %s -> %q (%v), want into %s", filepath.Join(root, "bin", "kubectl-backoff"), link, err, store)
	}

	t.Run("version", func(t *testing.T) {
		out, err := u.run(t, "backoff", "version")
		if err != nil {
			t.Fatal(err)
		}
		// The release stamps the commit it was built from and that commit's
		// date (never the clock's): both are git's.
		head := gitOut(t, "rev-parse", "HEAD")
		date := gitOut(t, "log", "-1", "--date=format-local:%Y-%m-%dT%H:%M:%SZ", "--format=%cd", "HEAD")
		want := regexp.MustCompile(`^kubectl-backoff ` + regexp.QuoteMeta(version) +
			`, commit ` + head + `(-dirty)?, built ` + regexp.QuoteMeta(date) + ` \(wire API ` + api.APIVersion + `\)\n$`)
		if !want.MatchString(out) {
			t.Errorf("kubectl backoff version printed %q, want it to match %s (a release directory built from another commit? run hack/release.sh again)", out, want)
		}
	})

	t.Run("get-demo", func(t *testing.T) {
		addr := startInstalledDemo(t, u)
		eventually(t, time.Minute, "the demo's naive keys back off", func(context.Context) error {
			out, err := u.run(t, "backoff", "get", "--addr", addr, "--controller", "naive", "--state", "backoff", "-o", "json")
			if err != nil {
				return err
			}
			var list inspector.KeyList
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				return fmt.Errorf("get -o json printed no key list: %v", err)
			}
			if len(list.Items) == 0 {
				return fmt.Errorf("no naive key in backoff yet (%d tracked)", list.Total)
			}
			for _, k := range list.Items {
				if k.Controller != "naive" || k.State != api.StateBackoff || k.LastError == nil {
					return fmt.Errorf("key %s: controller %s, state %s, last error %v; want naive, backoff, an error", k.Key.Key, k.Controller, k.State, k.LastError)
				}
			}
			return nil
		})
	})
}

// startInstalledDemo runs `kubectl backoff demo --serve-only` (its embedded
// store, no cluster) from the krew install and returns the address it prints
// on stdout; the demo is stopped at the end of the test.
func startInstalledDemo(t *testing.T, u krewUser) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "kubectl", "backoff", "demo", "--serve-only", "--listen", "127.0.0.1:0", "--seed", "42", "--speed", "10")
	cmd.Env = u.env
	cmd.WaitDelay = 5 * time.Second
	var errOut lockedBuffer
	cmd.Stderr = &errOut
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("kubectl backoff demo: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("--- demo stderr ---\n%s", clip(errOut.String()))
		}
	})
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case addr := <-first:
		if !strings.HasPrefix(addr, "http://127.0.0.1:") {
			t.Fatalf("kubectl backoff demo --serve-only printed %q on stdout, want its endpoint's URL\n%s", addr, errOut.String())
		}
		return addr
	case <-time.After(time.Minute):
		t.Fatalf("kubectl backoff demo printed no address within a minute\n%s", errOut.String())
		return ""
	}
}

// gitOut runs git in the repository, in UTC, and returns its trimmed output.
func gitOut(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}
