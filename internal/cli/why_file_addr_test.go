package cli_test

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// queuedEndpoint is an instrumented controller run outside the cluster
// whose queue is instrumented too (a classic rate-limiting queue, as
// ControllerOptions would wrap): controller configmap failed once on
// widgets/down-1 and the key waits an hour in backoff. The queue is
// returned: a forget --requeue makes the key ready on it.
func queuedEndpoint(t *testing.T) (*httptest.Server, workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	t.Helper()
	reg := instrument.NewRegistry()
	log := logr.Discard()
	ep := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(ep.Close)
	p := instrument.New("configmap", instrument.Options{Registry: reg, Object: &corev1.ConfigMap{}, DisableMetrics: true})
	rl := p.RateLimiter(workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Hour, time.Hour))
	q := p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(rl, workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Name: "configmap"}))
	t.Cleanup(q.ShutDown)
	req := reconcile.Request{}
	req.Namespace, req.Name = "widgets", "down-1"
	q.Add(req)
	item, _ := q.Get()
	_, err := p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("eu region unavailable")
	})).Reconcile(context.Background(), item)
	q.AddRateLimited(item)
	q.Done(item)
	if err == nil {
		t.Fatal("the reconcile did not fail")
	}
	return ep, q
}

// whyCLI runs kubectl-backoff with args, without a cluster: its stdout.
func whyCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	root := cli.NewRootCommand(genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%s: %v (stderr %s)", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

// TestWhyFileAddrNextSteps: `why -f FILE --addr ADDR`'s answer says the
// retry, the fix and a command that does what it says. With the
// controller's queue instrumented, the command is forget --requeue through
// --addr, and run as printed it makes the key ready on the queue now;
// without it (the rate limiter alone), the endpoint cannot requeue — forget
// leaves the pending retry its time — and the answer said "forget
// --requeue … retries now" all the same: it now touches the object (kick).
func TestWhyFileAddrNextSteps(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir()) // no ~/.kube/config
	file := filepath.Join(t.TempDir(), "cm.yaml")
	if err := os.WriteFile(file, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: down-1\n  namespace: widgets\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	ep, q := queuedEndpoint(t)
	out := whyCLI(t, "why", "-f", file, "--addr", ep.URL)
	retry := "  > Then retry at once: `kubectl backoff forget --addr " + ep.URL + " widgets/down-1 --requeue --controller configmap`   (resets the backoff and retries now)\n"
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^  InProgress: controller "configmap" is failing on it: 1 consecutive failure, next retry in (59m\d\ds|1h0m) \(exact\)\.$`),
		regexp.MustCompile(`(?m)^  > Fix what the error names: eu region unavailable$`),
		regexp.MustCompile(regexp.QuoteMeta(retry)),
		regexp.MustCompile(`(?m)^  Next retry:     (59m\d\ds|1h0m) \(at \d\d:\d\d:\d\d\)$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("why -f FILE --addr ADDR lacks %s:\n%s", want, out)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("the queue holds %d keys before the forget, want none ready (an hour's backoff)", q.Len())
	}
	// The command as printed, between its backquotes, run: the key is
	// ready now.
	i := strings.Index(out, "`kubectl backoff forget")
	if i < 0 {
		t.Fatal("no forget command to run")
	}
	line := out[i+1 : strings.Index(out[i+1:], "`")+i+1]
	whyCLI(t, strings.Fields(line)[2:]...)
	deadline := time.Now().Add(10 * time.Second)
	for q.Len() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("after %s, the queue holds %d ready keys, want widgets/down-1", line, q.Len())
		}
		time.Sleep(time.Millisecond)
	}

	// The rate limiter alone: no queue to requeue on.
	ep = cli.FailingEndpoint(t, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Hour, time.Hour))
	out = whyCLI(t, "why", "-f", file, "--addr", ep.URL)
	if want := "  > Then retry at once: `kubectl backoff kick --kind ConfigMap widgets/down-1`   (touches the object so that its watch retries it now; the failure count is kept)\n"; !strings.Contains(out, want) || strings.Contains(out, "forget") {
		t.Errorf("why -f FILE --addr ADDR of a controller whose queue is not instrumented:\n%s\nwant\n%s", out, want)
	}
}
