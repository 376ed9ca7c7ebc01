//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
	"github.com/kubectl-backoff/kubectl-backoff/test/localcluster"
)

// The zero-code mode: `--from-logs` reads controller-runtime's own log of
// the demo's controllers (demo.Options.ControllerLog), which kwok serves as
// the pod's container log through the real pods/log API, and never touches
// the endpoint. The endpoint of the same controllers is the truth it is
// checked against: two runs of the demo could not be compared, since its
// simulated users edit random failing keys every few seconds.

// criLog is a container's log file as a container runtime writes it
// (localcluster.CRILog): what kwok, like the kubelet, serves for pods/log.
type criLog struct {
	*localcluster.CRILog
	path string
}

// newCRILog creates the file; it is closed at the end of the test, after
// whatever writes to it has stopped (cleanups run last-registered first).
func newCRILog(t *testing.T, path string) *criLog {
	t.Helper()
	l, err := localcluster.NewCRILog(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return &criLog{CRILog: l, path: path}
}

// testFromLogs checks `get --from-logs` against the endpoint's truth, key by
// key: the same keys, failure counts within one, the estimated next retry
// within the delay's own size, every number labelled an estimate.
func testFromLogs(t *testing.T, kc *kubectl, admin, logPath string) {
	t.Cleanup(func() {
		if t.Failed() {
			logLinesOf(t, logPath, "naive-00000") // one key's lines show what the log holds
		}
	})
	truth := func(controller string) (*inspector.KeyList, error) {
		var l inspector.KeyList
		return &l, kc.jsonOf(t, &l, admin, cmd("get", "--controller", controller, "-o", "json")...)
	}
	estimate := func(controller string) (*inspector.KeyList, error) {
		var l inspector.KeyList
		return &l, kc.jsonOf(t, &l, admin, cmd("get", "--from-logs", "--controller", controller, "-o", "json")...)
	}
	eventually(t, time.Minute, "--from-logs agrees with the endpoint on naive", func(context.Context) error {
		before, err := truth("naive")
		if err != nil {
			return err
		}
		est, err := estimate("naive")
		if err != nil {
			return err
		}
		after, err := truth("naive")
		if err != nil {
			return err
		}
		return compareNaive(before, est, after)
	})
	eventually(t, 30*time.Second, "--from-logs agrees with the endpoint on wellbehaved", func(context.Context) error {
		tr, err := truth("wellbehaved")
		if err != nil {
			return err
		}
		est, err := estimate("wellbehaved")
		if err != nil {
			return err
		}
		if err := labelled(est); err != nil {
			return err
		}
		// Terminal errors: failed, on both sides.
		if got, want := keysIn(est, api.StateFailed), keysIn(tr, api.StateFailed); len(want) == 0 || !slices.Equal(got, want) {
			return fmt.Errorf("failed keys: --from-logs %v, endpoint %v", got, want)
		}
		return nil
	})

	out := kc.ok(t, admin, cmd("describe", "--from-logs", "--controller", "naive", ns+"/naive-00000")...)
	for _, want := range []string{"Key:         demo/naive-00000", "spec.storageClass must be set", "Source:", "every number is an estimate", "shows no successes"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe --from-logs lacks %q:\n%s", want, out)
		}
	}
}

// logLinesOf logs the first lines of the controller log that mention key,
// for a failed comparison.
func logLinesOf(t *testing.T, path, key string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var out []string
	for line := range strings.Lines(string(b)) {
		if strings.Contains(line, key) && len(out) < 40 {
			out = append(out, line)
		}
	}
	t.Logf("--- controller log, lines of %s ---\n%s", key, strings.Join(out, ""))
}

// compareNaive compares the log's estimate with two reads of the truth
// around it. The naive keys fail forever: in the log they are in backoff,
// or unknown once quiet past their retry (success is not logged). Keys
// that changed between the two reads, or were not in backoff, are not
// compared; at least one must be.
func compareNaive(before, est, after *inspector.KeyList) error {
	if err := labelled(est); err != nil {
		return err
	}
	if got, want := keysIn(est), keysIn(before); len(want) == 0 || !slices.Equal(got, want) {
		return fmt.Errorf("keys: --from-logs %v, endpoint %v", got, want)
	}
	byKey := func(l *inspector.KeyList) map[string]api.Key {
		m := map[string]api.Key{}
		for _, k := range l.Items {
			m[k.Key.Key] = k.Key
		}
		return m
	}
	estimates, later := byKey(est), byKey(after)
	compared := 0
	for _, tr := range before.Items {
		e := estimates[tr.Key.Key]
		if e.State != api.StateBackoff && e.State != api.StateUnknown {
			return fmt.Errorf("%s: --from-logs says %s, want backoff or unknown (the key fails forever)", tr.Key.Key, e.State)
		}
		a := later[tr.Key.Key]
		if tr.State != api.StateBackoff || a.State != api.StateBackoff || a.Failures != tr.Failures {
			continue // it retried while the log was read
		}
		compared++
		if d := e.Failures - tr.Failures; d < -1 || d > 1 {
			return fmt.Errorf("%s: --from-logs counts %d failures, the endpoint %d", tr.Key.Key, e.Failures, tr.Failures)
		}
		if d := e.NextRetryAt.Sub(tr.NextRetryAt).Abs(); d > tr.Delay.Duration {
			return fmt.Errorf("%s: --from-logs estimates the next retry at %v, the endpoint says %v: %v apart, more than the delay %v",
				tr.Key.Key, e.NextRetryAt, tr.NextRetryAt, d, tr.Delay.Duration)
		}
	}
	if compared == 0 {
		return fmt.Errorf("no naive key stayed in backoff while the log was read")
	}
	return nil
}

// labelled checks that every key says its numbers are estimated from logs.
func labelled(l *inspector.KeyList) error {
	if len(l.Items) == 0 {
		return fmt.Errorf("--from-logs: no key (%d tracked)", l.Total)
	}
	for _, k := range l.Items {
		if k.Source != api.SourceLogs || !k.Estimated {
			return fmt.Errorf("%s: source %q, estimated %v; want %q, true", k.Key.Key, k.Source, k.Estimated, api.SourceLogs)
		}
	}
	return nil
}

// keysIn lists the keys of l, sorted; with states, only keys in one of them.
func keysIn(l *inspector.KeyList, states ...api.State) []string {
	var out []string
	for _, k := range l.Items {
		if len(states) == 0 || slices.Contains(states, k.State) {
			out = append(out, k.Key.Key)
		}
	}
	slices.Sort(out)
	return out
}

// testKick kicks a key through the real API as a user who may read the
// controller's log: refused, with nothing patched, until the user may patch
// ConfigMaps; then the annotation is set.
func testKick(ctx context.Context, t *testing.T, kc *kubectl, env *envtest.Environment, dir string, cs kubernetes.Interface, c client.Client) {
	const name = "e2e-kicker"
	user, _ := addUser(t, env, dir, name)
	subject := rbacv1.Subject{Kind: rbacv1.UserKind, Name: name}
	readLogs := append(attachRules(false), rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods/log"}, Verbs: []string{"get"}})
	grantRole(ctx, t, cs, ns, "backoff-kick-logs", readLogs, subject)
	key := ns + "/naive-00003"
	kickCmd := cmd("kick", "--from-logs", "--controller", "naive", key)
	annotation := func() string {
		t.Helper()
		var cm corev1.ConfigMap
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "naive-00003"}, &cm); err != nil {
			t.Fatal(err)
		}
		return cm.Annotations[kick.Annotation]
	}

	_, errOut, err := kc.run(t, user, kickCmd...)
	if err == nil {
		t.Fatal("kick without patch on configmaps succeeded")
	}
	if want := "you may not patch configmaps " + key; !strings.Contains(errOut, want) {
		t.Errorf("error lacks %q:\n%s", want, errOut)
	}
	if a := annotation(); a != "" {
		t.Errorf("refused kick left %s=%s", kick.Annotation, a)
	}

	grantRole(ctx, t, cs, ns, "backoff-kick-patch", []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"patch"}}}, subject)
	started := time.Now()
	out := kc.ok(t, user, kickCmd...)
	if want := "configmaps " + key + " kicked"; !strings.Contains(out, want) {
		t.Errorf("kick output lacks %q:\n%s", want, out)
	}
	at, err := time.Parse(time.RFC3339Nano, annotation())
	if err != nil {
		t.Fatalf("annotation %s: %v", kick.Annotation, err)
	}
	// The plugin's clock and this one are the same machine's.
	if at.Before(started.Add(-time.Second)) || at.After(time.Now().Add(time.Second)) {
		t.Errorf("%s=%v, not during the kick (%v..%v)", kick.Annotation, at, started, time.Now())
	}
}
