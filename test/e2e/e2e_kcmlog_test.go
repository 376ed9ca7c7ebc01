//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// kcmSource are the module versions hack/k8s-bin.sh builds
// kube-controller-manager from (K8S_VERSION, and client-go's staging
// version of it), whose source says at which verbosity each line is logged.
var kcmSource = []string{"k8s.io/kubernetes@v1.37.2/pkg/controller", "k8s.io/client-go@v0.37.2/tools", "k8s.io/client-go@v0.37.2/util"}

// kcmKey is a failing key of the controller-manager cases, the log lines
// that are its failures (every one of marks), and whether log mode reads
// it yet (notYet: why not, so that the day it is read the test says so).
type kcmKey struct {
	controller, key string
	marks           []string
	notYet          string
}

// testKCMWholeLog reads kube-controller-manager's whole log once, as a
// user with only the file would (get --from-logs FILE -o json), after every
// controller-manager case: each case's failing key under
// kube-controller-manager's name for its controller, with as many failures
// as the log has lines of it and the last one's error. The log is written
// at --v=4; the same answers are asked of it with every line its source
// logs at V(3) or above taken out (kcmVerboseSites): the log of -v=2.
func testKCMWholeLog(ctx context.Context, t *testing.T, kc *kubectl, admin string, cs kubernetes.Interface, log *criLog) {
	rsOf := func(ns string) string {
		l, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(l.Items) != 1 {
			t.Fatalf("ReplicaSets in %s: %d (%v); want the case's one", ns, len(l.Items), err)
		}
		return ns + "/" + l.Items[0].Name
	}
	quotaRS, saRS, pendingRS := rsOf("q"), rsOf(saNamespace), rsOf(pendingNamespace)
	keys := []kcmKey{
		{controller: "replicaset-controller", key: quotaRS, marks: []string{"replica_set.go:", `sync \"` + quotaRS + `\" failed with`}},
		{controller: "replicaset-controller", key: saRS, marks: []string{"replica_set.go:", `sync \"` + saRS + `\" failed with`}},
		{controller: "namespace-controller", key: "stuck", marks: []string{`"Deletion of namespace failed"`, `namespace="stuck"`}},
		{controller: "persistentvolume-binder-controller", key: "missing/data", marks: []string{`"Error finding provisioning plugin for claim"`, `PVC="missing/data"`}},
		// Their failure lines name no key: the job controller's "syncing
		// job: ERR" (job_controller.go:753) takes its attempt's from the
		// line before (V(4) "Finished syncing job" key=, V(2) "Failed
		// creation" job=); the HPA controller's (horizontal.go:354) names
		// the scale target, known as the HPA by the V(2) "Successfully
		// updated status" HPA= line before its first failure.
		{controller: "job-controller", key: "psa/migrate", marks: []string{"job_controller.go:", `err="syncing job: pods \"migrate-`}},
		{controller: "job-controller", key: "psa/priv", marks: []string{"job_controller.go:", `err="syncing job: pods \"priv-`}}, // assertPrivilegedJob's
		{controller: "horizontal-pod-autoscaler-controller", key: "missing/web", marks: []string{"horizontal.go:", `failed to query scale subresource for Deployment/missing/web`}},
		{controller: "replicaset-controller", key: pendingRS, marks: []string{"replica_set.go:", `sync \"` + pendingRS + `\" failed with`}},
	}
	// The HPA fails once a resync period (15s): its second failure, whose
	// attempt names no key (its status is not written again), is read by
	// the target its first one was named with.
	eventually(t, time.Minute, "the HPA controller fails a second time", func(ctx context.Context) error {
		b, err := os.ReadFile(log.path)
		if n := len(linesOf(string(b), keys[5].marks...)); err != nil || n < 2 {
			return fmt.Errorf("%d failure lines of the HPA (%v)", n, err)
		}
		return nil
	})
	raw, err := os.ReadFile(log.path)
	if err != nil {
		t.Fatal(err)
	}
	raw = raw[:strings.LastIndexByte(string(raw), '\n')+1] // the lines written whole: a snapshot
	sites := kcmVerboseSites(t)
	var v2 strings.Builder
	dropped := 0
	for _, line := range strings.SplitAfter(string(raw), "\n") {
		if m := klogSite.FindStringSubmatch(line); m != nil && sites[m[1]] {
			dropped++
			continue
		}
		v2.WriteString(line)
	}
	t.Logf("the log: %d lines at --v=4; %d of them logged at V(3) or above by the source (%d call sites)", strings.Count(string(raw), "\n"), dropped, len(sites))
	dir := t.TempDir()
	for _, v := range []struct{ name, text string }{{"v4", string(raw)}, {"v2", v2.String()}} {
		path := filepath.Join(dir, "kcm-"+v.name+".log")
		if err := os.WriteFile(path, []byte(v.text), 0o600); err != nil {
			t.Fatal(err)
		}
		var list api.KeyList
		if err := kc.jsonOf(t, &list, admin, "backoff", "get", "--from-logs", path, "-o", "json"); err != nil {
			t.Fatal(err)
		}
		read := map[string]api.Key{}
		for _, k := range list.Items {
			read[k.Controller+" "+k.Key] = k
			t.Logf("-%s: read %s %s: %d failures, next retry in %v (%s)", v.name, k.Controller, k.Key, k.TotalFailures, k.Delay.Duration, k.DelaySource)
		}
		// A key read of a controller whose lines name no key of their own
		// (attemptkey.go) is one of the cases', or a false one.
		for _, k := range list.Items {
			if k.Controller == "job-controller" && k.Key != "psa/migrate" && k.Key != "psa/priv" || k.Controller == "horizontal-pod-autoscaler-controller" && k.Key != "missing/web" {
				t.Errorf("-%s: %s %s read (%d failures, last error %+v): no case of the log fails it", v.name, k.Controller, k.Key, k.TotalFailures, k.LastError)
			}
		}
		// The HPA controller retries every key after its resync period,
		// failed or not (NewDefaultHPARateLimiter, horizontal.go:175): a
		// fixed 15s, read as such, not a doubling.
		if k, ok := read["horizontal-pod-autoscaler-controller missing/web"]; ok && k.Delay.Duration != 15*time.Second {
			t.Errorf("-%s: the HPA's next retry in %v (%s); want its fixed 15s", v.name, k.Delay.Duration, k.DelaySource)
		}
		if v.name == "v4" {
			describeKCMAll(t, kc, admin, path, list.Items)
		} else {
			describeKCMLevels(t, kc, admin, path, map[string]string{"replicaset-controller": quotaRS, "horizontal-pod-autoscaler-controller": "missing/web"})
		}
		for _, want := range keys {
			k, ok := read[want.controller+" "+want.key]
			lines := linesOf(v.text, want.marks...)
			switch {
			case len(lines) == 0:
				t.Errorf("-%s: the log has no line of %s's failures on %s (%q)", v.name, want.controller, want.key, want.marks)
			case want.notYet != "" && ok:
				t.Errorf("-%s: %s %s is read now (%d failures): take it off the not-yet list (%s)", v.name, want.controller, want.key, k.Failures, want.notYet)
			case want.notYet != "":
				t.Logf("-%s: %s %s: %d line(s) of its failures, not read yet: %s", v.name, want.controller, want.key, len(lines), want.notYet)
			case !ok:
				t.Errorf("-%s: %s %s not read; %d lines of its failures; read %d keys", v.name, want.controller, want.key, len(lines), len(list.Items))
			case k.TotalFailures != len(lines) || k.LastError == nil || k.LastError.Message == "" ||
				!strings.Contains(strings.ReplaceAll(lines[len(lines)-1], `\"`, `"`), k.LastError.Message):
				t.Errorf("-%s: %s %s: %d failures, last error %+v; want the log's %d lines, the last one's error:\n%s", v.name, want.controller, want.key, k.TotalFailures, k.LastError, len(lines), lines[len(lines)-1])
			default:
				t.Logf("-%s: %s %s: %d failures, last error %q, as the log's lines", v.name, want.controller, want.key, k.TotalFailures, k.LastError.Message)
			}
		}
	}
}

// klogSite is the FILE.go:LINE of a klog header.
var klogSite = regexp.MustCompile(`^\S+ \S+ \S+ [IWEF]\d{4} [0-9:.]+ +\d+ (\S+\.go:\d+)\]`)

// linesOf are the lines of text that contain every one of marks.
func linesOf(text string, marks ...string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		all := true
		for _, m := range marks {
			all = all && strings.Contains(line, m)
		}
		if all {
			out = append(out, line)
		}
	}
	return out
}

// kcmVerboseSites are the FILE.go:LINE of every call in
// kube-controller-manager's source (kcmSource) that logs at V(3) or above
// (logger.V(4).Info(…), klog.V(3).Infof(…)), every line of a call written
// over several: klog's header names the call's file and line, and a line
// of the log at one of them is not written at -v=2. Read from the module
// cache, where hack/k8s-bin.sh built the binary from.
func kcmVerboseSites(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	cache := strings.TrimSpace(string(out))
	sites := map[string]bool{}
	fset := token.NewFileSet()
	for _, dir := range kcmSource {
		root := filepath.Join(cache, dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			base := filepath.Base(path)
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && verboseCall(call) {
					for l := fset.Position(call.Pos()).Line; l <= fset.Position(call.End()).Line; l++ {
						sites[base+":"+strconv.Itoa(l)] = true
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatalf("kube-controller-manager's source %s (hack/k8s-bin.sh builds from it): %v", root, err)
		}
	}
	return sites
}

// verboseCall says whether call is X.V(n).Info…(…) with n ≥ 3.
func verboseCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !strings.HasPrefix(sel.Sel.Name, "Info") {
		return false
	}
	v, ok := sel.X.(*ast.CallExpr)
	if !ok || len(v.Args) != 1 {
		return false
	}
	if vs, ok := v.Fun.(*ast.SelectorExpr); !ok || vs.Sel.Name != "V" {
		return false
	}
	lit, ok := v.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return false
	}
	n, err := strconv.Atoi(lit.Value)
	return err == nil && n >= 3
}
