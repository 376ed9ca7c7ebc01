package mcpserver

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
)

// syncBuffer is an audit log written by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// TestForget: with --allow-write, a dry run changes nothing and a forget
// resets the key; each is audited with the client's name and the user, and
// the endpoint records the same who.
func TestForget(t *testing.T) {
	s := demoSession(t)
	var audit syncBuffer
	cs := connect(t, Config{Session: s, AllowWrite: true, User: "alice", Audit: &audit})

	// A naive key: it fails forever (an outage key may succeed between two
	// reads and read as forgotten), and with 3 failures at least, so that a
	// forget that did not reset the count cannot pass for one that did.
	var k inspector.PodKey
	for deadline := time.Now().Add(time.Minute); ; {
		var keys KeysOutput
		call(t, cs, "keys", map[string]any{"controller": "naive", "state": []string{"backoff"}, "sort": "failures", "limit": 1}, &keys)
		if len(keys.Items) == 1 && keys.Items[0].Failures >= 3 {
			k = keys.Items[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no naive key in backoff with 3 failures within a minute: %+v", keys.Items)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, with a deadline
	}

	var dry ForgetOutput
	res := call(t, cs, "forget", map[string]any{"keys": []string{k.Key.Key}, "dry_run": true}, &dry)
	if res.IsError || len(dry.Results) != 1 || !dry.Results[0].DryRun || dry.Results[0].Count != 1 {
		t.Fatalf("forget dry run: %s; results %+v", textOf(res), dry.Results)
	}
	if d, err := s.Key(t.Context(), k.Controller, k.Key.Key); err != nil || d.Failures == 0 {
		t.Fatalf("after a dry run, %s: %v, %d failures; want it untouched", k.Key.Key, err, d.Failures)
	}

	var done ForgetOutput
	res = call(t, cs, "forget", map[string]any{"keys": []string{k.Key.Key}, "reason": "test"}, &done)
	if res.IsError || len(done.Results) != 1 || done.Results[0].Count != 1 {
		t.Fatalf("forget: %s; results %+v", textOf(res), done.Results)
	}
	d, err := s.Key(t.Context(), k.Controller, k.Key.Key)
	if err != nil {
		t.Fatal(err)
	}
	// The demo keeps running: the forgotten key may fail again before it is
	// read (20x speed: milliseconds apart). The forget must be in its history,
	// and Failures must count the errors after it, give or take the one a
	// worker may be between recording and counting: the reconciler decorator
	// records an error before controller-runtime's AddRateLimited has the
	// limiter count it (one less, read in between), and an error recorded
	// just before the forget is counted just after it (one more).
	forgot, since := -1, 0
	for i, a := range d.History {
		switch a.Outcome {
		case api.OutcomeError, api.OutcomeRequeue: // the limiter counts both
			since++
		case api.OutcomeForgotten:
			forgot, since = i, 0
		default: // a success, a terminal error or a RequeueAfter forgets the key
			since = 0
		}
	}
	if forgot < 0 {
		t.Fatalf("after forget: %d failures, history %+v; want a forgotten attempt", d.Failures, d.History)
	}
	if by := d.History[forgot].By; d.Failures < since-1 || d.Failures > since+1 || !strings.Contains(by, "test-assistant (via kubectl backoff mcp) for alice") {
		t.Errorf("after forget: %d failures, %d errors since it was forgotten by %q; want them equal (±1), forgotten by the client for alice", d.Failures, since, by)
	}
	// The streak the forget ended: the count it reset, at least the one
	// listed before it (a naive key's count only grows until a forget).
	if r := d.LastReset; r == nil || r.By != api.ResetForget || r.Failures < k.Failures {
		t.Errorf("after forget: last reset %+v; want a forget that ended a streak of %d failures or more", r, k.Failures)
	}
	a := audit.String()
	if n := strings.Count(a, "audit: "); n != 2 || !strings.Contains(a, `by "test-assistant (via kubectl backoff mcp) for alice": ok`) || !strings.Contains(a, "dryRun=true") {
		t.Errorf("audit log has %d lines, want 2 naming the client and the user:\n%s", n, a)
	}

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "forget needs keys, or all with controller"},
		{map[string]any{"all": true}, "controller: forget all acts on one controller"},
		{map[string]any{"keys": []string{"a/b"}, "state": []string{"backoff"}}, "state and query select keys with all"},
		{map[string]any{"all": true, "controller": "outage", "state": []string{"nope"}}, `state: "nope" is not a state`},
	} {
		if res := call(t, cs, "forget", tc.args, nil); !res.IsError || !strings.Contains(textOf(res), tc.want) {
			t.Errorf("forget %v: %q; want an error containing %q", tc.args, textOf(res), tc.want)
		}
	}
}

// TestKick: a dry run patches nothing; a kick goes through the command's
// Kicker and is audited; without a cluster it says why.
func TestKick(t *testing.T) {
	var audit syncBuffer
	var kicked []string
	cfg := Config{Session: demoSession(t), AllowWrite: true, User: "bob", Audit: &audit,
		Kick: func(_ context.Context, controller string, keys []string) ([]kick.Result, error) {
			kicked = append(kicked, keys...)
			return []kick.Result{{Key: keys[0], Resource: "configmaps", At: time.Unix(0, 0)}}, nil
		}}
	cs := connect(t, cfg)
	var out KickOutput
	if res := call(t, cs, "kick", map[string]any{"keys": []string{"demo/a"}, "dry_run": true}, &out); res.IsError || !out.DryRun || len(kicked) != 0 {
		t.Fatalf("kick dry run: %q, kicked %v; want nothing patched", textOf(res), kicked)
	}
	if res := call(t, cs, "kick", map[string]any{"keys": []string{"demo/a"}}, &out); res.IsError || len(out.Kicked) != 1 || out.Kicked[0].Resource != "configmaps" {
		t.Fatalf("kick: %q, %+v", textOf(res), out)
	}
	if a := audit.String(); strings.Count(a, "mcp kick") != 2 || !strings.Contains(a, "for bob") {
		t.Errorf("audit:\n%s\nwant 2 kick lines for bob", a)
	}

	cfg.Kick, cfg.NoKick = nil, "kick needs access to the cluster the objects live in"
	if res := call(t, connect(t, cfg), "kick", map[string]any{"keys": []string{"demo/a"}}, nil); !res.IsError || !strings.Contains(textOf(res), cfg.NoKick) {
		t.Errorf("kick without a cluster: %q", textOf(res))
	}
	cfg.Kick = func(context.Context, string, []string) ([]kick.Result, error) {
		return nil, errors.New("patch refused")
	}
	if res := call(t, connect(t, cfg), "kick", map[string]any{"keys": []string{"demo/a"}}, nil); !res.IsError || !strings.Contains(textOf(res), "patch refused") {
		t.Errorf("kick refused: %q", textOf(res))
	}
}
