package instrument

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// htLog captures a handler's log lines as JSON objects.
type htLog struct {
	mu    sync.Mutex
	lines []map[string]any
}

func (l *htLog) logger(t *testing.T) *logr.Logger {
	log := funcr.NewJSON(func(obj string) {
		var m map[string]any
		if err := json.Unmarshal([]byte(obj), &m); err != nil {
			t.Errorf("log line is not JSON: %v: %s", err, obj)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		l.lines = append(l.lines, m)
	}, funcr.Options{})
	return &log
}

func (l *htLog) all() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]map[string]any(nil), l.lines...)
}

// htForgetEnv is the fixture with alpha's queue instrumented (so it can
// requeue), a handler that logs to a capture, and failing keys default/s0..s3.
func htForgetEnv(t *testing.T) (*htEnv, *htLog, workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	e := htFixture(t)
	a := e.probes["alpha"]
	for i := range 4 {
		a.run(fmt.Sprintf("default/s%d", i), reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	}
	q := a.p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(a.rl,
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Clock: e.clk}))
	t.Cleanup(q.ShutDown)
	logs := &htLog{}
	e.h = NewHandler(HandlerOptions{Registry: e.reg, Logger: logs.logger(t)})
	return e, logs, q
}

func (e *htEnv) forget(body string) map[string]any {
	e.t.Helper()
	code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", body)
	if code != http.StatusOK {
		e.t.Fatalf("forget %s: status = %d, want 200: %v", body, code, m)
	}
	for _, f := range []string{"serverTime", "controller", "count", "requeued", "keys", "message"} {
		if _, ok := m[f]; !ok {
			e.t.Errorf("forget %s: no field %q in %v", body, f, m)
		}
	}
	return m
}

func TestHandlerForget(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantKeys  []string // forgotten, in order
		requeued  bool
		wantQueue int // keys made ready at once
	}{
		{"by keys", `{"controller":"alpha","keys":["default/a1","other/none"]}`, nil, false, 0},
		{"one key", `{"controller":"alpha","keys":["default/a1"]}`, []string{"default/a1"}, false, 0},
		{"by filter", `{"controller":"alpha","filter":{"q":"refused","state":["backoff"]}}`,
			[]string{"default/a1", "default/s0", "default/s1", "default/s2", "default/s3"}, false, 0},
		{"requeue", `{"controller":"alpha","keys":["default/a1","default/s2"],"requeue":true}`,
			[]string{"default/a1", "default/s2"}, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, logs, q := htForgetEnv(t)
			a := e.probes["alpha"]
			if tt.wantKeys == nil {
				code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", tt.body)
				htCheckError(t, tt.name, code, m, http.StatusNotFound, "NotFound", "other/none")
				return
			}
			before := map[string]float64{}
			for _, k := range tt.wantKeys {
				before[k] = e.get("v1/key?controller=alpha&key=" + k)["failures"].(float64)
			}
			m := e.forget(tt.body)
			if m["count"] != float64(len(tt.wantKeys)) || m["requeued"] != tt.requeued {
				t.Errorf("count, requeued = %v, %v, want %d, %v", m["count"], m["requeued"], len(tt.wantKeys), tt.requeued)
			}
			keys := m["keys"].([]any)
			for i, k := range tt.wantKeys {
				fk := keys[i].(map[string]any)
				if fk["key"] != k || fk["failures"] != before[k] || fk["state"] != string(api.StateBackoff) {
					t.Errorf("keys[%d] = %v, want %s with %v failures, backoff", i, fk, k, before[k])
				}
				after := e.get("v1/key?controller=alpha&key=" + k)
				if after["failures"] != 0.0 {
					t.Errorf("%s: failures = %v after forget, want 0", k, after["failures"])
				}
				if n := a.rl.NumRequeues(htReq(k)); n != 0 {
					t.Errorf("%s: limiter NumRequeues = %d after forget, want 0", k, n)
				}
				hist := after["history"].([]any)
				if got := hist[len(hist)-1].(map[string]any)["outcome"]; got != api.OutcomeForgotten {
					t.Errorf("%s: last outcome = %v, want %s", k, got, api.OutcomeForgotten)
				}
				wantState := api.StateBackoff
				if tt.requeued {
					wantState = api.StateQueued
				}
				if after["state"] != string(wantState) {
					t.Errorf("%s: state = %v after forget, want %s", k, after["state"], wantState)
				}
			}
			if got := q.Len(); got != tt.wantQueue {
				t.Errorf("queue length = %d, want %d", got, tt.wantQueue)
			}
			if other := e.get("v1/key?controller=beta&key=other/b2"); other["failures"] != 2.0 {
				t.Errorf("beta's other/b2 failures = %v, want 2 (another controller)", other["failures"])
			}
			lines := logs.all()
			if len(lines) != 1 {
				t.Fatalf("%d log lines, want 1: %v", len(lines), lines)
			}
			htCheckForgetLog(t, lines[0], "alpha", tt.wantKeys)
		})
	}
}

// htCheckForgetLog checks that a forget's log line names the controller, the
// count and every key it reset.
func htCheckForgetLog(t *testing.T, line map[string]any, controller string, keys []string) {
	t.Helper()
	if line["controller"] != controller || line["count"] != float64(len(keys)) {
		t.Errorf("log controller, count = %v, %v, want %s, %d: %v", line["controller"], line["count"], controller, len(keys), line)
	}
	reset, _ := line["reset"].([]any)
	if len(reset) != len(keys) {
		t.Fatalf("log reset = %v, want %d keys", line["reset"], len(keys))
	}
	for i, k := range keys {
		if s, _ := reset[i].(string); !strings.HasPrefix(s, k+"(") {
			t.Errorf("log reset[%d] = %q, want it to name %s", i, s, k)
		}
	}
}

func TestHandlerForgetSpread(t *testing.T) {
	e, _, q := htForgetEnv(t)
	const spread = 4 * time.Second
	keys := []string{"default/s0", "default/s1", "default/s2", "default/s3"}
	now := e.clk.Now()
	// Each key still waits out its backoff: the queue keeps the sooner of
	// that retry and its release, so a spread never delays a retry.
	pending := map[string]time.Time{}
	for _, k := range keys {
		pending[k] = htTime(t, e.get("v1/key?controller=alpha&key=" + k)["nextRetryAt"])
	}
	m := e.forget(fmt.Sprintf(`{"controller":"alpha","filter":{"q":"default/s"},"requeue":true,"spread":%q}`, spread))
	earlierKeys := 0
	got := m["keys"].([]any)
	if len(got) != len(keys) {
		t.Fatalf("forgot %d keys, want %d", len(got), len(keys))
	}
	for i, k := range keys {
		fk := got[i].(map[string]any)
		release := spread * time.Duration(i) / time.Duration(len(keys))
		wantRelease, hasRelease := any(release.String()), release > 0
		if v, ok := fk["releaseIn"]; ok != hasRelease || (ok && v != wantRelease) {
			t.Errorf("keys[%d] = %v, want %s released in %v", i, fk, k, release)
		}
		after := e.get("v1/key?controller=alpha&key=" + k)
		if !hasRelease {
			if after["state"] != string(api.StateQueued) {
				t.Errorf("%s: state = %v, want queued", k, after["state"])
			}
			continue
		}
		// Failing keys: their retry waits for its slot, a backoff, not a
		// RequeueAfter's planned re-check.
		if after["state"] != string(api.StateBackoff) || after["delaySource"] != api.SourceSpread {
			t.Errorf("%s: state, delaySource = %v, %v, want backoff, %s", k, after["state"], after["delaySource"], api.SourceSpread)
		}
		want, earlier := now.Add(release), false
		if p := pending[k]; p.After(now) && p.Before(want) {
			want, earlier = p, true
		}
		if at := htTime(t, after["nextRetryAt"]); !at.Equal(want) || (after["earlierRetry"] == true) != earlier {
			t.Errorf("%s: nextRetryAt = %v (earlierRetry %v), want %v (%v): the sooner of its pending retry %v and its release",
				k, at, after["earlierRetry"], want, earlier, pending[k])
		}
		// The forget's answer says so too: the CLI's "retried in" must be
		// the retry that will run the key, not a slot that comes after it.
		if v, ok := fk["earlierRetryIn"]; ok != earlier || (ok && v != want.Sub(now).String()) {
			t.Errorf("%s: earlierRetryIn = %v, want %v (earlier: %v)", k, v, want.Sub(now), earlier)
		}
		if earlier {
			earlierKeys++
		}
	}
	if earlierKeys == 0 {
		t.Errorf("no key had a retry pending before its slot: the fixture no longer tests the sooner ready time")
	}
	if got := q.Len(); got != 1 {
		t.Errorf("queue length = %d right after the forget, want 1 (the first key)", got)
	}
	e.clk.Step(spread)
	htPoll(t, func() (bool, string) {
		n := q.Len()
		return n == len(keys), fmt.Sprintf("queue length %d, want %d", n, len(keys))
	})
}

// htPoll waits for cond, failing after a generous deadline.
func htPoll(t *testing.T, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, msg := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition not met in time: %s", msg)
		}
		<-time.After(time.Millisecond)
	}
}

func TestHandlerForgetDryRunAndReadOnly(t *testing.T) {
	e, logs, q := htForgetEnv(t)
	m := e.forget(`{"controller":"alpha","filter":{"state":["backoff"]},"requeue":true,"dryRun":true}`)
	if m["count"] != 5.0 || m["dryRun"] != true || m["requeued"] != false {
		t.Errorf("dry run count, dryRun, requeued = %v, %v, %v, want 5, true, false", m["count"], m["dryRun"], m["requeued"])
	}
	if !strings.Contains(m["message"].(string), "would forget") {
		t.Errorf("dry run message = %q, want it to say \"would forget\"", m["message"])
	}

	ro := NewHandler(HandlerOptions{Registry: e.reg, ReadOnly: true, Logger: logs.logger(t)})
	code, _, m := e.do(ro, http.MethodPost, api.DefaultPrefix+"v1/forget", `{"controller":"alpha","keys":["default/a1"]}`)
	htCheckError(t, "read-only forget", code, m, http.StatusForbidden, "Forbidden", "read-only")
	_, _, m = e.do(ro, http.MethodGet, api.DefaultPrefix+"v1/controllers", "")
	for _, c := range m["controllers"].([]any) {
		caps := c.(map[string]any)["capabilities"].(map[string]any)
		if caps["readOnly"] != true || caps["canForget"] != false || caps["canRequeue"] != false {
			t.Errorf("read-only capabilities = %v, want readOnly only", caps)
		}
	}

	// Neither changed anything.
	a := e.probes["alpha"]
	if k := e.get("v1/key?controller=alpha&key=default/a1"); k["failures"] != 3.0 || k["state"] != string(api.StateBackoff) {
		t.Errorf("default/a1 failures, state = %v, %v, want 3, backoff", k["failures"], k["state"])
	}
	if n := a.rl.NumRequeues(htReq("default/a1")); n != 3 {
		t.Errorf("limiter NumRequeues = %d, want 3", n)
	}
	if q.Len() != 0 {
		t.Errorf("queue length = %d, want 0", q.Len())
	}
	if lines := logs.all(); len(lines) != 0 {
		t.Errorf("log lines = %v, want none", lines)
	}
}

func TestServerRunnable(t *testing.T) {
	e := htFixture(t)
	s := NewServer("127.0.0.1:0", e.h)
	if s.Addr() != nil {
		t.Errorf("Addr before Listen = %v, want nil", s.Addr())
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	if s.NeedLeaderElection() {
		t.Errorf("NeedLeaderElection = true, want false (standbys serve too)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Start(ctx) }()

	resp, err := http.Get("http://" + s.Addr().String() + api.DefaultPrefix + "v1/controllers")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var list api.ControllerList
	if err := json.Unmarshal(body, &list); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET v1/controllers: %d %v: %s", resp.StatusCode, err, body)
	}
	if len(list.Controllers) != len(e.reg.Names()) {
		t.Errorf("served %d controllers, want %d", len(list.Controllers), len(e.reg.Names()))
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Start = %v after cancel, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Start did not return after its context was cancelled")
	}
}

func TestServerDefaultAddr(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"", DefaultAddr},
		{"127.0.0.1:9999", "127.0.0.1:9999"},
	}
	for _, tt := range tests {
		if got := NewServer(tt.addr, http.NotFoundHandler()).addr; got != tt.want {
			t.Errorf("NewServer(%q).addr = %q, want %q", tt.addr, got, tt.want)
		}
		if got := Server(tt.addr).addr; got != tt.want {
			t.Errorf("Server(%q).addr = %q, want %q", tt.addr, got, tt.want)
		}
	}
	if DefaultAddr != "127.0.0.1:8082" {
		t.Errorf("DefaultAddr = %q, want loopback 127.0.0.1:8082", DefaultAddr)
	}
}

// TestHandlerForgetOnceEach: a key named twice is forgotten once and counted
// once; a dry run keeps no pending retry because it reset nothing.
func TestHandlerForgetOnceEach(t *testing.T) {
	e, logs, _ := htForgetEnv(t)
	m := e.forget(`{"controller":"alpha","keys":["default/a1","default/s0","default/a1"]}`)
	if m["count"] != 2.0 || len(m["keys"].([]any)) != 2 {
		t.Errorf("count, keys = %v, %v; want 2 keys once each", m["count"], m["keys"])
	}
	if m["pendingRetryKept"] != true {
		t.Errorf("pendingRetryKept = %v, want true (reset without requeue)", m["pendingRetryKept"])
	}
	forgotten := 0
	for _, a := range e.get("v1/key?controller=alpha&key=default/a1")["history"].([]any) {
		if a.(map[string]any)["outcome"] == api.OutcomeForgotten {
			forgotten++
		}
	}
	if forgotten != 1 {
		t.Errorf("default/a1 history holds %d forgets, want 1", forgotten)
	}
	if lines := logs.all(); len(lines) != 1 || lines[0]["count"] != 2.0 {
		t.Errorf("log = %v, want one line with count 2", lines)
	}

	dry := e.forget(`{"controller":"alpha","keys":["default/s1"],"dryRun":true}`)
	if dry["count"] != 1.0 || dry["pendingRetryKept"] != nil {
		t.Errorf("dry run: count, pendingRetryKept = %v, %v; want 1, absent", dry["count"], dry["pendingRetryKept"])
	}
}

// TestForgetSaysWhatWasReset: a forget's message claims only what the keys
// had: a failed or idle key had nothing to reset, a RequeueAfter's key no
// count, a backing-off key both a count and a retry that keeps its time.
func TestForgetSaysWhatWasReset(t *testing.T) {
	for _, tt := range []struct {
		key, want string
		kept      bool
	}{
		{"default/a1", "a pending retry keeps its time, the failure count starts again from 0", true},
		{"default/a2", "there was nothing to reset (no failures counted, no retry pending): requeue to run it now", false},
		{"default/a4", "there was nothing to reset (no failures counted, no retry pending): requeue to run it now", false},
		{"kube-system/A3", "there was no failure count to reset; a pending retry keeps its time", true},
	} {
		e, _, _ := htForgetEnv(t)
		m := e.forget(fmt.Sprintf(`{"controller":"alpha","keys":[%q]}`, tt.key))
		if got := m["message"].(string); !strings.HasSuffix(got, tt.want) {
			t.Errorf("forget %s: message = %q, want it to end %q", tt.key, got, tt.want)
		}
		if got := m["pendingRetryKept"] == true; got != tt.kept {
			t.Errorf("forget %s: pendingRetryKept = %v, want %v", tt.key, got, tt.kept)
		}
	}
	e, _, _ := htForgetEnv(t)
	m := e.forget(`{"controller":"alpha","keys":["default/a2"],"dryRun":true}`)
	if got, want := m["message"].(string), "there is nothing to reset"; !strings.Contains(got, want) {
		t.Errorf("dry run: message = %q, want it to say %q", got, want)
	}
}

// A key that is not failing, requeued with a spread, waits for its slot as
// a planned re-check (scheduled), not as a failure.
func TestHandlerForgetSpreadNotFailing(t *testing.T) {
	e, _, _ := htForgetEnv(t)
	a := e.probes["alpha"]
	a.run("default/ok0", reconcile.Result{}, nil)
	a.run("default/ok1", reconcile.Result{}, nil)
	e.forget(`{"controller":"alpha","filter":{"q":"default/ok"},"requeue":true,"spread":"4s"}`)
	after := e.get("v1/key?controller=alpha&key=default/ok1")
	if after["state"] != string(api.StateScheduled) || after["delaySource"] != api.SourceSpread {
		t.Errorf("default/ok1: state, delaySource = %v, %v, want scheduled, %s", after["state"], after["delaySource"], api.SourceSpread)
	}
}
