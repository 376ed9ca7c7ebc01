package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// demoURL starts one demo for the package's tests, and waits until it has
// a key backing off.
var demoOnce struct {
	sync.Once
	url string
	err error
}

func demoSession(t *testing.T) *inspector.Session {
	t.Helper()
	demoOnce.Do(func() {
		opts := demo.DefaultOptions()
		opts.Keys, opts.Seed, opts.Speed, opts.Listen, opts.Out, opts.ErrOut = 200, 42, 20, "127.0.0.1:0", io.Discard, io.Discard
		// The demo outlives each test: it is the package's, and the process's end stops it.
		d, err := demo.Start(context.Background(), opts)
		if err != nil {
			demoOnce.err = err
			return
		}
		demoOnce.url = d.URL()
	})
	if demoOnce.err != nil {
		t.Fatalf("demo.Start: %v", demoOnce.err)
	}
	s, err := inspector.Direct(demoOnce.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		l, err := s.Keys(ctx, inspector.KeyQuery{States: []api.State{api.StateBackoff}, Limit: 1})
		if err == nil && len(l.Items) > 0 {
			return s
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the demo has no key in backoff: %v", err)
		case <-tick.C:
		}
	}
}

// connect serves cfg in process and returns the SDK's own client on it.
func connect(t *testing.T, cfg Config) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(cfg).Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-assistant", Version: "v1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured answer into out (may be nil).
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v; want a result", tool, err)
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured answer: %v\n%s", tool, err, b)
		}
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestTools lists the tools and checks each has its schemas.
func TestTools(t *testing.T) {
	cs := connect(t, Config{Session: demoSession(t)})
	want := map[string]bool{"controllers": true, "keys": true, "key": true, "error_groups": true, "why": true, "forget": true, "kick": true}
	for tool, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if !want[tool.Name] {
			t.Errorf("tool %q: not expected", tool.Name)
		}
		delete(want, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("tool %q: input schema %v, output schema %v, description %q: want all", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil, tool.Description)
		}
	}
	for name := range want {
		t.Errorf("tool %q: missing", name)
	}
	var prompts []string
	for p, err := range cs.Prompts(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		prompts = append(prompts, p.Name)
	}
	if got := strings.Join(prompts, ","); got != "debug_stuck_object,incident" {
		t.Errorf("prompts = %s, want debug_stuck_object,incident", got)
	}
}

// TestReadTools calls each read tool against the demo.
func TestReadTools(t *testing.T) {
	cs := connect(t, Config{Session: demoSession(t), Attach: "--addr 127.0.0.1:1"})

	var ctrls ControllersOutput
	res := call(t, cs, "controllers", nil, &ctrls)
	if res.IsError || len(ctrls.Controllers) != 6 {
		t.Fatalf("controllers: error %v, %d controllers, want the demo's 6: %s", res.IsError, len(ctrls.Controllers), textOf(res))
	}
	for _, c := range ctrls.Controllers {
		if c.Diagnosis == "" || !strings.Contains(textOf(res), c.Name) {
			t.Errorf("controller %s: diagnosis %q; text %q", c.Name, c.Diagnosis, textOf(res))
		}
	}

	// The demo runs at 20× speed: a moment with no key in backoff (every
	// retry just due, or running) comes now and then, so the call is
	// repeated until one is, within a deadline (CI saw "No keys match").
	var keys KeysOutput
	deadline := time.Now().Add(30 * time.Second)
	for {
		keys = KeysOutput{}
		res = call(t, cs, "keys", map[string]any{"state": []string{"backoff"}, "sort": "failures", "limit": 3}, &keys)
		if res.IsError || len(keys.Items) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond) // poll the live demo again
	}
	if res.IsError || len(keys.Items) == 0 || len(keys.Items) > 3 {
		t.Fatalf("keys: error %v, %d items, want 1-3: %s", res.IsError, len(keys.Items), textOf(res))
	}
	for i, k := range keys.Items {
		if k.State != api.StateBackoff {
			t.Errorf("keys: %s is %s, want backoff", k.Key.Key, k.State)
		}
		if i > 0 && k.Failures > keys.Items[i-1].Failures {
			t.Errorf("keys: not sorted by failures: %d after %d", k.Failures, keys.Items[i-1].Failures)
		}
	}
	if keys.Matched > 3 && !strings.Contains(keys.More, "ask with offset 3") {
		t.Errorf("keys: %d matched, 3 shown; more = %q, want how to ask for the rest", keys.Matched, keys.More)
	}

	var key KeyOutput
	first := keys.Items[0]
	res = call(t, cs, "key", map[string]any{"key": first.Key.Key}, &key)
	if res.IsError || key.Key == nil || key.Key.Key.Key != first.Key.Key || len(key.Key.History) == 0 {
		t.Fatalf("key %s: error %v, answer %+v: %s", first.Key.Key, res.IsError, key.Key, textOf(res))
	}
	if key.Diagnosis.Summary == "" || !strings.Contains(textOf(res), key.Diagnosis.Summary) {
		t.Errorf("key: diagnosis %q not in the text %q", key.Diagnosis.Summary, textOf(res))
	}

	var groups ErrorGroupsOutput
	res = call(t, cs, "error_groups", map[string]any{"limit": 2}, &groups)
	if res.IsError || len(groups.Groups) == 0 || len(groups.Groups) > 2 {
		t.Fatalf("error_groups: error %v, %d groups, want 1-2: %s", res.IsError, len(groups.Groups), textOf(res))
	}
	for _, g := range groups.Groups {
		if g.Count == 0 || len(g.Examples) == 0 || len(g.Examples) > maxExamples {
			t.Errorf("group %q: count %d, %d examples", g.Message, g.Count, len(g.Examples))
		}
	}
}

// TestRefusedInput: what a model gets wrong comes back as a tool error
// (IsError, not a protocol error) that says what to give instead.
func TestRefusedInput(t *testing.T) {
	cs := connect(t, Config{Session: demoSession(t), NoWhy: "why reads the object from the API server; pass --kubeconfig/--context or set KUBECONFIG",
		AllowWriteHow: "restart it with `kubectl backoff mcp --allow-write`"})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"keys", map[string]any{"state": []string{"stuck"}}, `state: "stuck" is not a state`},
		{"keys", map[string]any{"sort": "oldest"}, `sort "oldest": use`},
		{"keys", map[string]any{"limit": 1000}, "limit 1000: between 1 and 100 keys a call"},
		{"keys", map[string]any{"query": "~("}, "query:"},
		{"keys", map[string]any{"controller": "nope"}, `no controller "nope"`},
		{"key", map[string]any{}, "key"},
		{"key", map[string]any{"key": ""}, "key: give the key"},
		{"key", map[string]any{"key": "demo/no-such-key"}, "demo/no-such-key"},
		{"error_groups", map[string]any{"state": []string{"later"}}, `state: "later" is not a state`},
		{"why", map[string]any{"object": "certificate"}, `object "certificate": give TYPE/NAME`},
		{"why", map[string]any{}, "object"},
		{"keys", map[string]any{"query": "no-such-key-anywhere"}, ""}, // not refused: an empty page
		{"why", map[string]any{"object": "certificate/web"}, "why reads the object from the API server"},
		{"forget", map[string]any{"keys": []string{"demo/outage-00001"}}, "restart it with `kubectl backoff mcp --allow-write`"},
		{"kick", map[string]any{"keys": []string{"demo/outage-00001"}}, "restart it with `kubectl backoff mcp --allow-write`"},
	} {
		res := call(t, cs, tc.tool, tc.args, nil)
		if tc.want == "" {
			if res.IsError || !strings.Contains(textOf(res), "No keys match") {
				t.Errorf("%s %v: %q; want an empty answer, said", tc.tool, tc.args, textOf(res))
			}
			continue
		}
		if !res.IsError || !strings.Contains(textOf(res), tc.want) {
			t.Errorf("%s %v: error %v, %q; want an error containing %q", tc.tool, tc.args, res.IsError, textOf(res), tc.want)
		}
		// The list of what to use is said once (it was said twice for a
		// state, once by the engine and once again here).
		if n := strings.Count(textOf(res), "; use "); n > 1 {
			t.Errorf("%s %v: %q says what to use %d times", tc.tool, tc.args, textOf(res), n)
		}
	}
}

// TestEscaped: text from a cluster reaches neither the summary nor the
// structured answer with a control character in it.
func TestEscaped(t *testing.T) {
	type inner struct {
		Msg  string
		List []string
		M    map[string]string
	}
	v := &struct {
		A string
		P *inner
	}{A: "evil\x1b]0;owned\a", P: &inner{Msg: "x\u202ey", List: []string{"\x9b2J"}, M: map[string]string{"k": "\x00"}}}
	bound(v)
	for _, s := range []string{v.A, v.P.Msg, v.P.List[0], v.P.M["k"]} {
		if strings.ContainsAny(s, "\x1b\a\u202e\x9b\x00") {
			t.Errorf("bound left a control character in %q", s)
		}
	}
	long := strings.Repeat("é", maxMessage+10)
	if got := capText(long, maxMessage); !strings.HasSuffix(got, "(10 more characters)") {
		t.Errorf("capText of %d runes ends %q, want the count of what was cut", maxMessage+10, got[len(got)-30:])
	}
	if got := summary("a\x1b[2Jb"); got != `a\x1b[2Jb` {
		t.Errorf("summary = %q, want the escape written out", got)
	}
}
