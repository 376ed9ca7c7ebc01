package inspector_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// explainNow is when the replicas' fake clocks start: the time the
// inspector/explain tests read at, so that a diagnosis reads alike in both.
var explainNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// checkDiagnosis compares every part of a diagnosis.
func checkDiagnosis(t *testing.T, got, want explain.Diagnosis) {
	t.Helper()
	if got.State != want.State {
		t.Errorf("State = %q, want %q", got.State, want.State)
	}
	if got.Summary != want.Summary {
		t.Errorf("Summary:\n got %q\nwant %q", got.Summary, want.Summary)
	}
	if !slices.Equal(got.Details, want.Details) {
		t.Errorf("Details:\n got %q\nwant %q", got.Details, want.Details)
	}
	if !slices.EqualFunc(got.Findings, want.Findings, func(a, b explain.Finding) bool { return a.String() == b.String() }) {
		t.Errorf("Findings:\n got %q\nwant %q", got.Findings, want.Findings)
	}
}

// replica is one controller process: a registry on a fake clock set to
// explainNow, served by a real instrument endpoint.
type replica struct {
	reg   *instrument.Registry
	clock *clocktesting.FakeClock
	srv   *httptest.Server
}

func newReplica(t *testing.T, opts instrument.HandlerOptions) *replica {
	t.Helper()
	log := logr.Discard()
	opts.Registry, opts.Logger = instrument.NewRegistry(), &log
	srv := httptest.NewServer(instrument.NewHandler(opts))
	t.Cleanup(srv.Close)
	return &replica{reg: opts.Registry, clock: clocktesting.NewFakeClock(explainNow), srv: srv}
}

// endpoint is a session endpoint on the replica, named as a pod would be.
func (r *replica) endpoint(t *testing.T, name string) *inspector.Endpoint {
	t.Helper()
	c, err := inspector.NewClient(r.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &inspector.Endpoint{Name: name, Client: c}
}

// testController is an instrumented controller whose keys the test drives by
// hand, in the order a controller calls the decorators.
type testController struct {
	probe *instrument.TypedProbe[string]
	rl    workqueue.TypedRateLimiter[string]
}

// controller registers a controller; until a reconcile runs it is
// inactive, as on a replica that is not the leader.
func (r *replica) controller(name string) *testController {
	p := instrument.NewTyped(name, instrument.TypedOptions[string]{Registry: r.reg, Clock: r.clock})
	return &testController{probe: p, rl: p.RateLimiter(nil)}
}

// fail reconciles key n times with an error, each retry delayed by the limiter.
func (c *testController) fail(t *testing.T, key string, n int, msg string) {
	t.Helper()
	rec := c.probe.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New(msg)
	}))
	for range n {
		if _, err := rec.Reconcile(context.Background(), key); err == nil {
			t.Fatalf("reconcile %s: no error", key)
		}
		c.rl.When(key)
	}
}

// succeed reconciles key once, successfully.
func (c *testController) succeed(key string) {
	rec := c.probe.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, nil
	}))
	_, _ = rec.Reconcile(context.Background(), key)
	c.rl.Forget(key)
}

// keyNames lists "pod key" for each item, to compare merged pages.
func keyNames(l *inspector.KeyList) []string {
	out := make([]string, len(l.Items))
	for i, k := range l.Items {
		out[i] = strings.TrimSpace(k.Pod + " " + k.Key.Key)
	}
	return out
}

func TestSessionStandby(t *testing.T) {
	leader, standby := newReplica(t, instrument.HandlerOptions{}), newReplica(t, instrument.HandlerOptions{})
	w := leader.controller("widget")
	w.fail(t, "default/a", 2, "boom")
	w.succeed("default/b")
	standby.controller("widget")
	standby.controller("gadget")
	s := inspector.NewSession([]*inspector.Endpoint{leader.endpoint(t, "ops/ctrl-0"), standby.endpoint(t, "ops/ctrl-1")}, nil)
	ctx := context.Background()

	ov, err := s.Overview(ctx)
	if err != nil {
		t.Fatalf("Overview: %v", err)
	}
	if got := []bool{ov.Replicas[0].Standby, ov.Replicas[1].Standby}; !slices.Equal(got, []bool{false, true}) {
		t.Errorf("Standby of ctrl-0, ctrl-1 = %v, want [false true]", got)
	}
	if ov.Replicas[1].Endpoint != "ops/ctrl-1" || len(ov.Replicas[1].Controllers) != 2 {
		t.Errorf("standby replica = %+v, want ops/ctrl-1 listing its 2 inactive controllers", ov.Replicas[1])
	}
	if len(ov.Controllers) != 1 || ov.Controllers[0].Name != "widget" || !ov.Controllers[0].Active || ov.Controllers[0].Keys != 2 {
		t.Errorf("merged controllers = %+v, want only the leader's widget, active, with 2 keys", ov.Controllers)
	}
	if !ov.ServerTime.Equal(explainNow) {
		t.Errorf("ServerTime = %v, want %v", ov.ServerTime, explainNow)
	}

	l, err := s.Keys(ctx, inspector.KeyQuery{Sort: api.SortKey})
	if err != nil {
		t.Fatalf("Keys: %v", err)
	}
	if got, want := keyNames(l), []string{"ops/ctrl-0 default/a", "ops/ctrl-0 default/b"}; !slices.Equal(got, want) {
		t.Errorf("keys = %q, want %q", got, want)
	}
}

// shards is two active replicas of one sharded controller: a1 (3 failures),
// a2 (6) and a0 (converged) on ops/ctrl-a; b1 (1) and b2 (5) on ops/ctrl-b.
func shards(t *testing.T) (a, b *replica, s *inspector.Session) {
	a, b = newReplica(t, instrument.HandlerOptions{}), newReplica(t, instrument.HandlerOptions{})
	wa, wb := a.controller("widget"), b.controller("widget")
	wa.fail(t, "a1", 3, "boom")
	wa.fail(t, "a2", 6, "boom")
	wa.succeed("a0")
	wb.fail(t, "b1", 1, "boom")
	wb.fail(t, "b2", 5, "boom")
	return a, b, inspector.NewSession([]*inspector.Endpoint{a.endpoint(t, "ops/ctrl-a"), b.endpoint(t, "ops/ctrl-b")}, nil)
}

func TestSessionShards(t *testing.T) {
	_, _, s := shards(t)
	ctx := context.Background()
	ov, err := s.Overview(ctx)
	if err != nil {
		t.Fatalf("Overview: %v", err)
	}
	if len(ov.Controllers) != 1 || ov.Controllers[0].Keys != 5 || ov.Controllers[0].Counts[api.StateBackoff] != 4 {
		t.Errorf("merged controllers = %+v, want one widget with 5 keys, 4 in backoff", ov.Controllers)
	}
	for i, want := range []int{2, 2} {
		if got := ov.Replicas[i].Controllers[0].Counts[api.StateBackoff]; got != want || ov.Replicas[i].Standby {
			t.Errorf("replica %s: %d keys in backoff (standby %v), want its own %d", ov.Replicas[i].Endpoint, got, ov.Replicas[i].Standby, want)
		}
	}

	tests := []struct {
		q    inspector.KeyQuery
		want []string
	}{
		{q: inspector.KeyQuery{Sort: api.SortNext},
			want: []string{"ops/ctrl-b b1", "ops/ctrl-a a1", "ops/ctrl-b b2", "ops/ctrl-a a2", "ops/ctrl-a a0"}},
		{q: inspector.KeyQuery{}, // the server's default order: next
			want: []string{"ops/ctrl-b b1", "ops/ctrl-a a1", "ops/ctrl-b b2", "ops/ctrl-a a2", "ops/ctrl-a a0"}},
		{q: inspector.KeyQuery{Sort: api.SortFailures},
			want: []string{"ops/ctrl-a a2", "ops/ctrl-b b2", "ops/ctrl-a a1", "ops/ctrl-b b1", "ops/ctrl-a a0"}},
		{q: inspector.KeyQuery{Sort: api.SortKey},
			want: []string{"ops/ctrl-a a0", "ops/ctrl-a a1", "ops/ctrl-a a2", "ops/ctrl-b b1", "ops/ctrl-b b2"}},
		{q: inspector.KeyQuery{Sort: api.SortKey, Offset: 1, Limit: 2}, want: []string{"ops/ctrl-a a1", "ops/ctrl-a a2"}},
		{q: inspector.KeyQuery{Sort: api.SortKey, Offset: 3, Limit: 10}, want: []string{"ops/ctrl-b b1", "ops/ctrl-b b2"}},
		{q: inspector.KeyQuery{Sort: api.SortNext, Offset: 1, Limit: 3}, want: []string{"ops/ctrl-a a1", "ops/ctrl-b b2", "ops/ctrl-a a2"}},
		{q: inspector.KeyQuery{Sort: api.SortKey, Offset: 5}, want: []string{}},
		{q: inspector.KeyQuery{Sort: api.SortKey, States: []api.State{api.StateIdle}}, want: []string{"ops/ctrl-a a0"}},
	}
	for _, tt := range tests {
		l, err := s.Keys(ctx, tt.q)
		if err != nil {
			t.Fatalf("Keys(%+v): %v", tt.q, err)
		}
		if got := keyNames(l); !slices.Equal(got, tt.want) {
			t.Errorf("Keys(%+v) = %q, want %q", tt.q, got, tt.want)
		}
		if l.Total != 5 {
			t.Errorf("Keys(%+v): Total = %d, want 5", tt.q, l.Total)
		}
	}
}

// A key being reconciled follows the keys still waiting out a delay (it has
// no countdown left: api.SortNext); the merged order must place it where
// its own replica does.
func TestSessionShardsRunningKey(t *testing.T) {
	a, b := newReplica(t, instrument.HandlerOptions{}), newReplica(t, instrument.HandlerOptions{})
	wa, wb := a.controller("widget"), b.controller("widget")
	wa.fail(t, "r", 1, "boom") // retry due 5ms after explainNow
	a.clock.Step(1e9)
	b.clock.Step(1e9)
	wb.fail(t, "b", 1, "boom") // retry due 1.005s after explainNow
	wb.succeed("c")

	started, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	slow := wa.probe.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		close(started)
		<-release
		return reconcile.Result{}, nil
	}))
	go func() {
		defer close(done)
		_, _ = slow.Reconcile(context.Background(), "r")
	}()
	<-started
	defer func() { close(release); <-done }()

	s := inspector.NewSession([]*inspector.Endpoint{a.endpoint(t, "ops/ctrl-a"), b.endpoint(t, "ops/ctrl-b")}, nil)
	l, err := s.Keys(context.Background(), inspector.KeyQuery{Sort: api.SortNext})
	if err != nil {
		t.Fatalf("Keys: %v", err)
	}
	if got, want := keyNames(l), []string{"ops/ctrl-b b", "ops/ctrl-a r", "ops/ctrl-b c"}; !slices.Equal(got, want) {
		t.Errorf("keys by next = %q, want %q (r is running: after the retry still counting down, before the idle key)", got, want)
	}
	if l.Items[1].State != api.StateRunning {
		t.Errorf("r is %s, want running", l.Items[1].State)
	}
}

func TestSessionKeyAndForget(t *testing.T) {
	a, b, s := shards(t)
	ctx := context.Background()

	k, err := s.Key(ctx, "widget", "b2")
	if err != nil {
		t.Fatalf("Key b2: %v", err)
	}
	if k.Pod != "ops/ctrl-b" || k.Failures != 5 || len(k.History) != 5 {
		t.Errorf("Key b2 = pod %q, %d failures, %d attempts; want ops/ctrl-b, 5, 5", k.Pod, k.Failures, len(k.History))
	}
	if _, err := s.Key(ctx, "widget", "nope"); err == nil || !strings.Contains(err.Error(), `key "nope" of controller "widget": on no replica`) {
		t.Errorf("Key nope: error = %v, want one saying no replica has it", err)
	}

	resp, err := s.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"b2"}})
	if err != nil {
		t.Fatalf("Forget b2: %v", err)
	}
	if resp.Count != 1 || len(resp.Keys) != 1 || resp.Keys[0] != (api.ForgottenKey{Key: "b2", State: api.StateBackoff, Failures: 5}) {
		t.Errorf("Forget b2 = %+v, want b2 reset from 5 failures", resp)
	}
	failures := func(r *replica, key string) int {
		t.Helper()
		d, err := r.endpoint(t, "").Client.Key(ctx, "widget", key)
		if err != nil {
			t.Fatalf("key %s: %v", key, err)
		}
		return d.Failures
	}
	if got := []int{failures(b, "b2"), failures(a, "a2"), failures(b, "b1")}; !slices.Equal(got, []int{0, 6, 1}) {
		t.Errorf("failures of b2, a2, b1 after forgetting b2 = %v, want [0 6 1]", got)
	}

	resp, err = s.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"a1", "b1"}})
	if err != nil {
		t.Fatalf("Forget a1 b1: %v", err)
	}
	if resp.Count != 2 || failures(a, "a1") != 0 || failures(b, "b1") != 0 {
		t.Errorf("Forget a1 b1: count %d; failures now %d, %d; want 2 forgotten, 0 each", resp.Count, failures(a, "a1"), failures(b, "b1"))
	}
	lines := strings.Split(resp.Message, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ops/ctrl-a: forgot the backoff of 1 key of") || !strings.HasPrefix(lines[1], "ops/ctrl-b: forgot the backoff of 1 key of") {
		t.Errorf("Forget a1 b1: message %q, want one line per replica", resp.Message)
	}

	if _, err := s.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), "no replica has the keys nope") {
		t.Errorf("Forget nope: error = %v, want one naming the key", err)
	}
}

func TestSessionReadOnly(t *testing.T) {
	ctx := context.Background()
	for _, readOnly := range []bool{false, true} {
		r := newReplica(t, instrument.HandlerOptions{ReadOnly: readOnly})
		r.controller("widget").fail(t, "default/w1", 1, "boom")
		s := inspector.NewSession([]*inspector.Endpoint{r.endpoint(t, "ops/ctrl-0")}, nil)
		ov, err := s.Overview(ctx)
		if err != nil {
			t.Fatalf("Overview: %v", err)
		}
		if got := ov.ReadOnly(); got != readOnly {
			t.Errorf("handler ReadOnly %v: Overview.ReadOnly() = %v", readOnly, got)
		}
		_, err = s.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"default/w1"}})
		if got := inspector.IsForbidden(err); got != readOnly {
			t.Errorf("handler ReadOnly %v: forget error %v, IsForbidden = %v", readOnly, err, got)
		}
	}
}

func TestSessionDescribe(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	r.controller("widget").fail(t, "default/w1", 5, "connection refused")
	r.controller("gadget").fail(t, "default/g1", 1, "boom")
	s, err := inspector.Direct(r.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := describe.Describe(context.Background(), s, "widget", "default/w1", nil)
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	if d.Controller == nil || d.Controller.Name != "widget" || d.Key.Pod != "" || d.Object != nil {
		t.Errorf("Describe: controller %+v, pod %q, object %+v; want widget, no pod (one endpoint), no object", d.Controller, d.Key.Pod, d.Object)
	}
	// The replica instruments the limiter alone: its endpoint cannot
	// requeue, so the advice to retry now is kick, not forget --requeue.
	// "connection refused" is transient, never permanent: a server that
	// classifies says so, one that does not leaves it unknown, and five
	// failures in an instant are not long enough to look permanent.
	lastErr := `Last error: "connection refused", the same on the last 5 attempts; failing since 10:00:00.`
	var findings []explain.Finding
	if c := d.Key.LastError.Class; c != "" {
		lastErr = `Last error (` + c + `): "connection refused", the same on the last 5 attempts; failing since 10:00:00.`
	}
	if d.Key.LastError.Class == api.ClassTransient {
		findings = []explain.Finding{{Code: explain.FindingTransient,
			Message: "The error is transient, the same on the last 5 attempts since 10:00:00 (0s): what the controller depends on is down, and the backoff is doing its job — nothing to change in the controller. " +
				"If it keeps failing, the next retries wait 160ms, 320ms, 640ms, … up to 16m40s (the cap). Once the dependency is back, `kubectl backoff kick` " +
				"(it touches the object: this endpoint cannot requeue the key, its queue not instrumented or forget not allowed) retries now instead of after the delay."}}
	}
	checkDiagnosis(t, d.Diagnosis, explain.Diagnosis{State: api.StateBackoff,
		Summary:  "Backing off 80ms after 5 consecutive failures: per-item exponential, 5ms·2^4, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 160ms.",
		Details:  []string{lastErr},
		Findings: findings,
	})
	if _, err := describe.Describe(context.Background(), s, "widget", "default/nope", nil); err == nil || !strings.Contains(err.Error(), `no key "default/nope"`) {
		t.Errorf("Describe of an unknown key: error = %v, want one naming the key", err)
	}
}

func TestDirect(t *testing.T) {
	if _, err := inspector.Direct("nonsense", nil); err == nil || strings.Contains(err.Error(), "--addr") || !strings.Contains(err.Error(), `"nonsense"`) {
		t.Errorf(`Direct("nonsense") error = %v, want one naming the address and no flag (the CLI adds its own)`, err)
	}
	s, err := inspector.Direct("http://127.0.0.1:8082", nil)
	if err != nil {
		t.Fatalf("Direct: %v", err)
	}
	defer s.Close()
	eps := s.Endpoints()
	if len(eps) != 1 || eps[0].Name != "127.0.0.1:8082" || eps[0].State().Phase != cluster.PhaseConnected {
		t.Errorf("endpoints = %+v, want one, 127.0.0.1:8082, connected", eps)
	}
}
