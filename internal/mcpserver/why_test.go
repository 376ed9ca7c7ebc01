package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestWhy: the tool hands the object to the command's why and answers with
// its verdict, chain, blocker, backoff and next step, escaped; the nested
// chain and blockers pass the output schema.
func TestWhy(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	blocker := &why.Node{Object: why.Object{Kind: "Secret", Name: "ca", Namespace: "team-a", Key: "team-a/ca"}, Via: "spec.issuerRef", Status: "NotFound", Line: "not found", Blocker: true}
	ans := &why.Answer{
		Object:  why.Object{APIVersion: "cert-manager.io/v1", Kind: "Certificate", Namespace: "team-a", Name: "web", Key: "team-a/web"},
		Summary: "InProgress: waiting for secret \x1b]0;owned\a team-a/ca",
		Next:    []string{"kubectl backoff describe deploy/cert-manager team-a/web"},
		Backoff: &why.Backoff{Source: "endpoint", Controller: "certificates", ServerTime: now,
			Key: &api.Key{Controller: "certificates", Key: "team-a/web", State: api.StateBackoff, Failures: 4, NextRetryAt: now.Add(time.Minute)}},
		Now:      now,
		Chain:    &why.Chain{Root: &why.Node{Object: why.Object{Kind: "Certificate", Name: "web"}, Status: "InProgress", Below: []*why.Node{blocker}}},
		Blockers: []*why.Answer{{Object: blocker.Object, Summary: "NotFound", Now: now}},
	}
	var gotObject, gotNS string
	cs := connect(t, Config{Session: demoSession(t), Why: func(_ context.Context, object, ns string) (*why.Answer, error) {
		gotObject, gotNS = object, ns
		return ans, nil
	}})
	var out WhyOutput
	res := call(t, cs, "why", map[string]any{"object": "certificate/web", "namespace": "team-a"}, &out)
	if res.IsError {
		t.Fatalf("why: %s", textOf(res))
	}
	if gotObject != "certificate/web" || gotNS != "team-a" {
		t.Errorf("why asked for %q in %q, want certificate/web in team-a", gotObject, gotNS)
	}
	text := textOf(res)
	for _, want := range []string{`waiting for secret \x1b]0;owned\a team-a/ca`, "Next: kubectl backoff describe", "Backoff: ", "Blocker: "} {
		if !strings.Contains(text, want) {
			t.Errorf("why's text lacks %q:\n%s", want, text)
		}
	}
	if strings.ContainsAny(out.Summary, "\x1b\a") || out.Chain == nil || len(out.Blockers) != 1 || out.Backoff.Key.Failures != 4 {
		t.Errorf("why's answer: summary %q, chain %v, %d blockers", out.Summary, out.Chain != nil, len(out.Blockers))
	}
}

// TestCaps: a page, a key's history and every string stay within their
// caps however much the source holds, and a cut page says how to ask for
// the rest.
func TestCaps(t *testing.T) {
	cs := connect(t, Config{Session: demoSession(t)})
	var page KeysOutput
	if res := call(t, cs, "keys", map[string]any{"limit": maxKeys}, &page); res.IsError || len(page.Items) > maxKeys {
		t.Fatalf("keys limit %d: %d items (error %v)", maxKeys, len(page.Items), res.IsError)
	}
	var def KeysOutput
	res := call(t, cs, "keys", nil, &def)
	if len(def.Items) != defaultKeys || def.Matched <= defaultKeys || !strings.Contains(def.More, "ask with offset 20") {
		t.Errorf("keys with no limit: %d items of %d matched, more %q; want %d and how to ask for the rest", len(def.Items), def.Matched, def.More, defaultKeys)
	}
	if n := len(textOf(res)); n > defaultKeys*500 {
		t.Errorf("keys' text is %d bytes for %d keys", n, defaultKeys)
	}
	var next KeysOutput
	call(t, cs, "keys", map[string]any{"offset": 20, "sort": "key"}, &next)
	if next.Offset != 20 || len(next.Items) == 0 {
		t.Errorf("keys offset 20: offset %d, %d items", next.Offset, len(next.Items))
	}
	var key KeyOutput
	call(t, cs, "key", map[string]any{"key": def.Items[0].Key.Key, "controller": def.Items[0].Controller}, &key)
	if key.Key == nil || len(key.Key.History) > maxHistory {
		t.Errorf("key: history beyond %d", maxHistory)
	}
	var groups ErrorGroupsOutput
	call(t, cs, "error_groups", nil, &groups)
	for _, g := range groups.Groups {
		if len(g.Examples) > maxExamples || len([]rune(g.Message)) > maxMessage+40 {
			t.Errorf("group %q: %d examples, %d characters", g.Fingerprint, len(g.Examples), len(g.Message))
		}
	}
	if len(groups.Groups) > maxGroups {
		t.Errorf("%d groups, more than %d", len(groups.Groups), maxGroups)
	}
}

// TestPrompts: each prompt names the tools to call, in order, with what it
// was given; a missing object is refused.
func TestPrompts(t *testing.T) {
	cs := connect(t, Config{Session: demoSession(t)})
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "debug_stuck_object", Arguments: map[string]string{"object": "certificate/web", "namespace": "team-a"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := res.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{`Call why with object "certificate/web" and namespace "team-a"`, "Call key", "next command"} {
		if !strings.Contains(msg, want) {
			t.Errorf("debug_stuck_object lacks %q:\n%s", want, msg)
		}
	}
	if _, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "debug_stuck_object", Arguments: map[string]string{}}); err == nil {
		t.Error("debug_stuck_object without an object: no error")
	}
	res, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "incident", Arguments: map[string]string{"controller": "outage"}})
	if err != nil {
		t.Fatal(err)
	}
	msg = res.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{`Call error_groups with controller "outage"`, "Call controllers", "Call keys"} {
		if !strings.Contains(msg, want) {
			t.Errorf("incident lacks %q:\n%s", want, msg)
		}
	}
}
