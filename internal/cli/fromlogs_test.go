package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// realLog runs a real controller-runtime controller (zap JSON, the default
// verbosity) in which default/w1 fails 3 times and then succeeds, and
// default/w2 fails terminally, and returns its log.
func realLog(t *testing.T) string {
	t.Helper()
	buf := &syncBuffer{}
	var mu sync.Mutex
	calls := map[string]int{}
	c, err := controller.NewTypedUnmanaged("widget", controller.TypedOptions[reconcile.Request]{
		Reconciler: reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			mu.Lock()
			calls[req.Name]++
			n := calls[req.Name]
			mu.Unlock()
			switch {
			case req.Name == "w2":
				return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.size: Invalid value: -1"))
			case n <= 3:
				return reconcile.Result{}, errors.New("dial tcp 10.0.0.7:443: connect: connection refused")
			}
			return reconcile.Result{}, nil
		}),
		SkipNameValidation: ptr.To(true),
		Logger:             crzap.New(crzap.WriteTo(buf), crzap.UseDevMode(false)),
	})
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan event.GenericEvent, 2)
	if err := c.Watch(source.Channel(events, &crhandler.EnqueueRequestForObject{})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = c.Start(ctx) }()
	for _, name := range []string{"w1", "w2"} {
		events <- event.GenericEvent{Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		done := calls["w1"] == 4 && calls["w2"] == 1
		mu.Unlock()
		if done && strings.Count(buf.String(), "Reconciler error") == 4 {
			return buf.String()
		}
		if time.Now().After(deadline) {
			t.Fatalf("controller did not finish within 20s; log:\n%s", buf.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestFromLogsValidation(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"alone without a TARGET", []string{"--from-logs"}, "--from-logs: give a TARGET (deploy/NAME)"},
		{"with --addr", []string{"--from-logs", "x.log", "--addr", unreachable}, "--from-logs reads a log and --addr an endpoint"},
		{"a file and a TARGET", []string{"deploy/ctrl", "--from-logs=x.log"}, `--from-logs "x.log" reads that file: drop the TARGET`},
		{"with -A", []string{"--from-logs=x.log", "-A"}, "drop -A"},
		{"--since 0", []string{"deploy/ctrl", "--from-logs", "--since", "0s"}, "--since 0s: must be positive"},
		{"a missing file", []string{"--from-logs", filepath.Join(os.TempDir(), "no-such.log")}, "--from-logs: open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("get %s: err = %v, want it to contain %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
}

// getJSON runs get with args and decodes its JSON output.
func getJSON(t *testing.T, cf *genericclioptions.ConfigFlags, in string, args ...string) inspector.KeyList {
	t.Helper()
	streams, stdin, out, errOut := genericiooptions.NewTestIOStreams()
	stdin.WriteString(in)
	cmd := cli.NewGetCommand(cf, streams)
	cmd.SetArgs(append(args, "-o", "json"))
	if err := cmd.Execute(); err != nil {
		t.Fatalf("get %v: %v (stderr: %s)", args, err, errOut)
	}
	var list inspector.KeyList
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("get %v: %v in %s", args, err, out)
	}
	return list
}

// checkLogKeys checks what get read from realLog's log.
func checkLogKeys(t *testing.T, list inspector.KeyList) {
	t.Helper()
	got := map[string]string{}
	for _, k := range list.Items {
		if k.Source != api.SourceLogs || !k.Estimated {
			t.Errorf("%s: source %q estimated %v, want logs and true", k.Key.Key, k.Source, k.Estimated)
		}
		got[k.Key.Key] = fmt.Sprintf("%s failures=%d total=%d delay=%v", k.State, k.Failures, k.TotalFailures, k.Delay.Duration)
	}
	// w1's success is not logged: three failures, then quiet past the 20ms
	// retry (the log ends at w2's later line, or the clock has moved on).
	want := map[string]string{
		"default/w2": "failed failures=0 total=1 delay=0s",
	}
	if g := got["default/w1"]; !strings.HasSuffix(g, "failures=3 total=3 delay=20ms") {
		t.Errorf("default/w1: %s, want 3 failures and a 20ms delay", g)
	}
	if g, w := got["default/w2"], want["default/w2"]; g != w {
		t.Errorf("default/w2: %s, want %s", g, w)
	}
}

func TestGetFromLogsFileAndStdin(t *testing.T) {
	log := realLog(t)
	file := filepath.Join(t.TempDir(), "ctrl.log")
	if err := os.WriteFile(file, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	t.Run("FILE", func(t *testing.T) { checkLogKeys(t, getJSON(t, cf, "", "--from-logs", file)) })
	t.Run("-", func(t *testing.T) { checkLogKeys(t, getJSON(t, cf, log, "--from-logs", "-")) })
	t.Run("=FILE with a KEY", func(t *testing.T) {
		l := getJSON(t, cf, "", "--from-logs="+file, "default/w2")
		if len(l.Items) != 1 || l.Items[0].State != api.StateFailed {
			t.Errorf("items = %+v, want default/w2 failed", l.Items)
		}
	})

	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := cli.NewDescribeCommand(cf, streams)
	cmd.SetArgs([]string{"--from-logs", file, "default/w1"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v", err)
	}
	for _, want := range []string{"Failures:       3 failures logged since", "estimated with the default per-item exponential", `"unknown", not idle`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("describe output lacks %q:\n%s", want, out)
		}
	}
}

// TestGetFromLogsTarget streams a deployment's pod log through an API
// server (httptest) and checks what get asks it for: every pod's log, with
// the kubelet's timestamps, the last hour.
func TestGetFromLogsTarget(t *testing.T) {
	log := realLog(t)
	var stamped strings.Builder
	at := time.Now().UTC()
	for l := range strings.SplitSeq(strings.TrimSpace(log), "\n") {
		at = at.Add(time.Microsecond)
		fmt.Fprintf(&stamped, "%s %s\n", at.Format(time.RFC3339Nano), l)
	}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "ctrl"}}
	pod := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "ctrl-0", Labels: sel.MatchLabels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}
	var logQuery string
	var mu sync.Mutex
	apiServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/apis/apps/v1/namespaces/demo/deployments/ctrl":
			_ = json.NewEncoder(w).Encode(appsv1.Deployment{TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
				ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "ctrl"}, Spec: appsv1.DeploymentSpec{Selector: sel}})
		case "/api/v1/namespaces/demo/pods":
			_ = json.NewEncoder(w).Encode(corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, Items: []corev1.Pod{pod}})
		case "/api/v1/namespaces/demo/pods/ctrl-0":
			_ = json.NewEncoder(w).Encode(pod)
		case "/api/v1/namespaces/demo/pods/ctrl-0/log":
			mu.Lock()
			logQuery = r.URL.RawQuery
			mu.Unlock()
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte(stamped.String()))
		default:
			http.NotFound(w, r)
		}
	}))
	defer apiServer.Close()
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cf := genericclioptions.NewConfigFlags(false)
	*cf.KubeConfig, *cf.APIServer, *cf.Namespace = kubeconfig, apiServer.URL, "demo"

	checkLogKeys(t, getJSON(t, cf, "", "deploy/ctrl", "--from-logs"))
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"container=manager", "sinceSeconds=3600", "timestamps=true"} {
		if !strings.Contains(logQuery, want) {
			t.Errorf("pods/log query %q lacks %q", logQuery, want)
		}
	}
}

// TestGetFromLogsSaysWhatItRead reads real excerpts (inspector/logs/
// testdata/wild) through get --from-logs: stderr says how many lines were
// read, what was recognised by dialect, and how many failure lines could not
// be read, with one cut to the width; a log of only unreadable
// "Reconciler error" lines is not said to have none. A Flux line's stated
// next try is the key's, exact.
func TestGetFromLogsSaysWhatItRead(t *testing.T) {
	wild := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "inspector", "logs", "testdata", "wild", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	run := func(log string) (inspector.KeyList, string) {
		streams, stdin, out, errOut := genericiooptions.NewTestIOStreams()
		stdin.WriteString(log)
		cmd := cli.NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
		cmd.SetArgs([]string{"--from-logs", "-", "-o", "json"})
		if err := cmd.Execute(); err != nil {
			t.Fatalf("get: %v (stderr: %s)", err, errOut)
		}
		var list inspector.KeyList
		if err := json.Unmarshal(out.Bytes(), &list); err != nil {
			t.Fatalf("get: %v in %s", err, out)
		}
		return list, errOut.String()
	}

	list, stderr := run(wild("hypershift-2043.log") + wild("flux2-4509.log"))
	first, example, _ := strings.Cut(stderr, "\n")
	if want := "--from-logs: read 3 lines; recognised: Flux (JSON) 2; 1 line looked like a failure but could not be read, e.g.:"; first != want {
		t.Errorf("first line:\n got  %s\n want %s", first, want)
	}
	example, _, _ = strings.Cut(example, "\n")
	if !strings.HasPrefix(example, `  {"level":"error","ts":"2023-01-16T17:00:11Z","msg":"Reconciler error"`) || !strings.HasSuffix(example, "…") ||
		len([]rune(example)) != 120 {
		t.Errorf("example %q: want the unreadable line, cut to 120 columns", example)
	}
	// The Flux lines are of 2024-02-12: read as of their last line, said with the dates.
	if want := "--from-logs: 2024-02-12 05:55:53 UTC to 05:56:07, 2 keys, read as of its last line: ages and countdowns count from 2024-02-12 05:56:07 UTC, not from now"; !strings.Contains(stderr, want) {
		t.Errorf("stderr:\n%s\nwant it to say %q", stderr, want)
	}
	if len(list.Items) != 2 {
		t.Fatalf("keys = %+v, want the two Kustomizations", list.Items)
	}
	for _, k := range list.Items {
		if k.Estimated || k.Delay.Duration != 30*time.Minute || k.DelaySource != api.SourceStated || k.State != api.StateBackoff {
			t.Errorf("%s: estimated %v, delay %v from %q, %s; want the stated 30m0s, exact, backoff", k.Key.Key, k.Estimated, k.Delay.Duration, k.DelaySource, k.State)
		}
	}
	if !list.Items[0].NextRetryAt.Equal(list.Items[0].LastError.At.Add(30 * time.Minute)) {
		t.Errorf("next retry %v, want 30m after %v", list.Items[0].NextRetryAt, list.Items[0].LastError.At)
	}

	// cert-manager's certificaterequests-* controllers run its 5s..5m limiter.
	list, _ = run(wild("cert-manager-3414.log"))
	for _, k := range list.Items {
		if k.Delay.Duration != 5*time.Second || !k.Estimated {
			t.Errorf("%s %s: delay %v estimated %v, want cert-manager's first 5s, estimated", k.Controller, k.Key.Key, k.Delay.Duration, k.Estimated)
		}
	}
	if len(list.Items) != 3 {
		t.Errorf("%d keys, want one per issuer controller", len(list.Items))
	}

	_, stderr = run(wild("aro-rp-1613.log"))
	if strings.Contains(stderr, "none a controller-runtime") || !strings.Contains(stderr, "none recognised as a controller's reconcile line; 2 lines looked like failures but could not be read") {
		t.Errorf("a log of unreadable Reconciler error lines:\n%s", stderr)
	}
}
