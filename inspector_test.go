package main

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// TestInspectorAgainstARealController is the inspector end to end, as the
// design card names it: the demo's real controller-runtime controllers
// (their queues, rate limiters and workers), instrumented, served on
// loopback, read through the client library every command and the TUI use.
// What it reads must be what the queue really does: a failing key's delays
// double as client-go's per-item exponential limiter doubles them, a
// terminal error is not retried, and a forget with requeue resets the
// count the limiter keeps.
func TestInspectorAgainstARealController(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := demo.DefaultOptions()
	opts.Listen, opts.Keys, opts.Speed, opts.Seed = "127.0.0.1:0", 40, 20, 7
	d, s := startDemo(ctx, t, cancel, opts)

	ov, err := s.Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range ov.Controllers {
		names = append(names, c.Name)
	}
	for _, sc := range d.Scenarios() {
		if !slices.Contains(names, sc.Controller) {
			t.Errorf("controllers %v lack the demo's %q", names, sc.Controller)
		}
	}

	// The naive controller returns the same error forever: once a key has
	// failed five times, its history shows the limiter's doubling.
	key := waitKey(ctx, t, s, "naive", func(k inspector.PodKey) bool { return k.State == api.StateBackoff && k.Failures >= 5 })
	det := waitDetail(ctx, t, s, "naive", key.Key.Key)
	if !strings.Contains(det.DelaySource, "exponential") {
		t.Errorf("%s: delay source %q, want the per-item exponential limiter's", key.Key.Key, det.DelaySource)
	}
	var delays []time.Duration
	for _, a := range det.History {
		if a.Error != "" && a.Delay.Duration > 0 {
			delays = append(delays, a.Delay.Duration)
		}
	}
	if len(delays) < 3 {
		t.Fatalf("%s: %d failed attempts with a delay in its history, want at least 3: %+v", key.Key.Key, len(delays), det.History)
	}
	for i := 1; i < len(delays); i++ {
		if delays[i] != 2*delays[i-1] {
			t.Errorf("%s: delays %v: the exponential limiter doubles each failure's delay", key.Key.Key, delays)
			break
		}
	}
	// The retry is the delay after the limiter's When, which comes after
	// the reconcile's end and before the read: how long after the end
	// depends on the machine (a worker preempted between the two on a
	// loaded one), so the bounds are those two moments, not a margin.
	if from := det.NextRetryAt.Add(-det.Delay.Duration); from.Before(det.LastReconcileAt) || from.After(det.ServerTime) {
		t.Errorf("%s: next retry %v is its delay %v after %v, want a moment between the last reconcile's end %v and the read %v",
			key.Key.Key, det.NextRetryAt, det.Delay.Duration, from, det.LastReconcileAt, det.ServerTime)
	}

	// The well-behaved controller returns a terminal error: failed, not retried.
	waitKey(ctx, t, s, "wellbehaved", func(k inspector.PodKey) bool { return k.State == api.StateFailed && k.NextRetryAt.IsZero() })

	// A forget with requeue resets the limiter's count: the key's next
	// failure is its first again.
	before := det.Failures
	resp, err := s.Forget(ctx, api.ForgetRequest{Controller: "naive", Keys: []string{key.Key.Key}, Requeue: true, Reason: "inspector_test"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Count != 1 || !resp.Requeued {
		t.Fatalf("forget %s: count %d, requeued %v; want 1, true", key.Key.Key, resp.Count, resp.Requeued)
	}
	// The wait is on what stays true once the key has failed again, not on
	// the moment its count is below before: at the demo's speed a reset key
	// climbs past it in milliseconds, quicker than a loaded machine polls.
	// TotalFailures keeps the attempts before the reset; Failures restarted.
	waitKey(ctx, t, s, "naive", func(k inspector.PodKey) bool {
		return k.Key.Key == key.Key.Key && k.LastReset != nil && k.LastReset.By == api.ResetForget &&
			k.Failures >= 1 && k.TotalFailures-k.Failures >= before
	})
}

// waitKey polls the controller's keys until one satisfies ok, or fails the
// test at ctx's deadline.
func waitKey(ctx context.Context, t *testing.T, s *inspector.Session, controller string, ok func(inspector.PodKey) bool) inspector.PodKey {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var last *inspector.KeyList
	for {
		l, err := s.Keys(ctx, inspector.KeyQuery{Controller: controller, Limit: 500})
		if err == nil {
			last = l
			for _, k := range l.Items {
				if ok(k) {
					return k
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no key of %s came to the awaited state before the deadline (last error %v); last page: %+v", controller, err, last)
		case <-tick.C:
		}
	}
}

// waitDetail reads a key until it is backing off with its retry scheduled:
// a worker records a failed reconcile (backoff) before the limiter's When
// schedules its retry, and a reading in between has no next retry yet.
func waitDetail(ctx context.Context, t *testing.T, s *inspector.Session, controller, key string) *inspector.PodKeyDetail {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		det, err := s.Key(ctx, controller, key)
		if err == nil && det.State == api.StateBackoff && !det.NextRetryAt.IsZero() {
			return det
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s of %s never read backing off with a next retry (last error %v); last read: %+v", key, controller, err, det)
		case <-tick.C:
		}
	}
}

// TestDescribeAndWhyAfterAForget: a failing key of the demo's real naive
// controller, forgotten without a retry, keeps the retry its queue holds
// and has no failure to count until it fails again. What describe prints
// (its Failures line) and what why answers (the endpoint the user named,
// --addr) say so from the real endpoint: "0 since the forget at HH:MM:SS"
// (explain.FailuresText), never "0 consecutive failures" beside "failing
// on it". The demo edits a failing key every few seconds, which retries it
// at once: a key that failed again before it was read is forgotten and read
// again, another key, never waited for.
func TestDescribeAndWhyAfterAForget(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none")) // describe reads no cluster: the endpoint alone
	opts := demo.DefaultOptions()
	opts.Listen, opts.Keys, opts.Seed = "127.0.0.1:0", 40, 7
	d, s := startDemo(ctx, t, cancel, opts)

	for attempt := 1; ; attempt++ {
		// A key whose retry is a few seconds away: read in milliseconds
		// after the forget, before its queue retries it.
		key := waitKey(ctx, t, s, "naive", func(k inspector.PodKey) bool {
			return k.State == api.StateBackoff && k.Failures >= 3 && time.Until(k.NextRetryAt) > 2*time.Second
		}).Key.Key
		if _, err := s.Forget(ctx, api.ForgetRequest{Controller: "naive", Keys: []string{key}, Reason: "inspector_test"}); err != nil {
			t.Fatal(err)
		}
		before, err := s.Key(ctx, "naive", key)
		if err != nil {
			t.Fatal(err)
		}

		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		cmd := cli.NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
		cmd.SetArgs([]string{"--addr", d.URL(), "--controller", "naive", key})
		if err := cmd.Execute(); err != nil {
			t.Fatalf("describe %s: %v\n%s", key, err, errOut)
		}
		ns, name, _ := strings.Cut(key, "/")
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": ns}}}
		asker := &why.Asker{Direct: &why.Direct{Session: s, Addrs: []string{d.URL()}}}
		ans := asker.Ask(ctx, obj, "configmaps")

		after, err := s.Key(ctx, "naive", key)
		if err != nil {
			t.Fatal(err)
		}
		if r := after.LastReset; before.Failures != 0 || after.Failures != 0 || r == nil || r.By != api.ResetForget || r.Reason != "inspector_test" {
			// It failed again between the forget and the last read (an
			// edit, or its retry on a loaded machine): another key.
			if attempt == 5 {
				t.Fatalf("%s: %d failures after the forget, last reset %+v; 5 keys failed again before they were read", key, after.Failures, r)
			}
			continue
		}
		want := "0 since the forget at " + text.TimeOfDay(after.LastReset.At)
		if !regexp.MustCompile(`(?m)^  Failures: +` + regexp.QuoteMeta(want) + `, \d+ in all`).MatchString(out.String()) {
			t.Errorf("describe %s does not count %q:\n%s", key, want, out)
		}
		if !strings.Contains(ans.Summary, `controller "naive" is failing on it: `+want+", ") {
			t.Errorf("why %s: summary %q (backoff error %v), want the failures %q", key, ans.Summary, ans.BackoffError, want)
		}
		for _, said := range []string{out.String(), ans.Summary} {
			if strings.Contains(said, "0 consecutive failures") {
				t.Errorf("%s: says 0 consecutive failures:\n%s", key, said)
			}
		}
		return
	}
}

// startDemo starts the demo's real controllers with opts and a session on
// their endpoint; cancel (ctx's) stops them when the test ends.
func startDemo(ctx context.Context, t *testing.T, cancel context.CancelFunc, opts demo.Options) (*demo.Demo, *inspector.Session) {
	t.Helper()
	d, err := demo.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = d.Wait() })
	s, err := inspector.Direct(d.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return d, s
}
