//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// mcpClientRun is what client.mjs prints: the tools the server lists, and
// each call's answer.
type mcpClientRun struct {
	Server struct{ Name string } `json:"server"`
	Tools  []struct {
		Name            string `json:"name"`
		HasOutputSchema bool   `json:"hasOutputSchema"`
	} `json:"tools"`
	Calls []struct {
		Name       string          `json:"name"`
		IsError    bool            `json:"isError"`
		Structured json.RawMessage `json:"structured"`
		Text       string          `json:"text"`
	} `json:"calls"`
}

// installMCPClient installs test/e2e/mcpclient (the official TypeScript SDK,
// at its lockfile's versions) into a directory of its own with npm ci, and
// returns it: the source tree gets no node_modules.
func installMCPClient(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the mcp test runs the official TypeScript SDK's client: %s is needed (Node.js 20 or later)", tool)
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "client.mjs"} {
		b, err := os.ReadFile(filepath.Join("mcpclient", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	npm := exec.CommandContext(ctx, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	npm.Dir = dir
	if out, err := npm.CombinedOutput(); err != nil {
		t.Fatalf("npm ci (test/e2e/mcpclient): %v\n%s", err, out)
	}
	return dir
}

// testMCP: a real MCP client from outside the project — the official
// TypeScript SDK's, which checks every structured answer against the tool's
// output schema — starts `kubectl backoff mcp deploy/demo -n demo` on stdio
// as the admin's kubectl would, lists the tools, and calls keys (the demo's
// naive keys backing off) and why (the failing widget of testWhy, whose
// controller the server finds on the real API server).
func testMCP(t *testing.T, kc *kubectl, admin string) {
	dir := installMCPClient(t)
	plan, err := json.Marshal(map[string]any{
		"command": "kubectl",
		"args":    cmd("mcp"),
		"calls": []map[string]any{
			{"name": "keys", "arguments": map[string]any{"controller": "naive", "state": []string{"backoff"}, "sort": "failures", "limit": 5}},
			{"name": "why", "arguments": map[string]any{"object": "widget/w-fail", "namespace": ns}},
			{"name": "forget", "arguments": map[string]any{"keys": []string{ns + "/naive-00000"}, "dry_run": true}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	node := exec.CommandContext(ctx, "node", "client.mjs", string(plan))
	node.Dir = dir
	node.Env = kc.env(admin)
	node.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	node.Stdout, node.Stderr = &out, &errOut
	if err := node.Run(); err != nil {
		t.Fatalf("node client.mjs: %v\nstderr: %s", err, clip(errOut.String()))
	}
	t.Logf("mcp client: %s\nserver's stderr: %s", clip(out.String()), clip(errOut.String()))
	var run mcpClientRun
	if err := json.Unmarshal(out.Bytes(), &run); err != nil {
		t.Fatalf("client.mjs printed %q: %v", clip(out.String()), err)
	}

	var names []string
	for _, tool := range run.Tools {
		names = append(names, tool.Name)
		if !tool.HasOutputSchema {
			t.Errorf("tool %s: no output schema", tool.Name)
		}
	}
	for _, want := range []string{"controllers", "keys", "key", "error_groups", "why", "forget", "kick"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v: no %s", names, want)
		}
	}
	if run.Server.Name != "kubectl-backoff" || len(run.Calls) != 3 {
		t.Fatalf("server %q, %d calls; want kubectl-backoff, 3", run.Server.Name, len(run.Calls))
	}

	keys := run.Calls[0]
	var list struct {
		Matched int       `json:"matched"`
		Items   []api.Key `json:"items"`
	}
	if err := decodeCall(keys.IsError, keys.Text, keys.Structured, &list); err != nil {
		t.Fatalf("keys: %v", err)
	}
	if len(list.Items) == 0 || len(list.Items) > 5 {
		t.Errorf("keys: %d items, want 1-5 naive keys in backoff: %s", len(list.Items), keys.Text)
	}
	for _, k := range list.Items {
		if k.Controller != "naive" || k.State != api.StateBackoff || k.LastError == nil {
			t.Errorf("keys: %s of %s is %s (error %v); want naive, backoff, an error", k.Key, k.Controller, k.State, k.LastError)
		}
	}

	w := run.Calls[1]
	var a why.Answer
	if err := decodeCall(w.IsError, w.Text, w.Structured, &a); err != nil {
		t.Fatalf("why: %v", err)
	}
	switch b := a.Backoff; {
	case a.Verdict.Status != why.InProgress:
		t.Errorf("why widget/w-fail: verdict %s, want InProgress: %s", a.Verdict.Status, w.Text)
	case b == nil || b.Key == nil || b.Source != why.SourceEndpoint || b.Controller != widgetsController:
		t.Errorf("why widget/w-fail: backoff %+v; want the endpoint's key of %q: %s", b, widgetsController, w.Text)
	case b.Key.State != api.StateBackoff || b.Key.Failures < 1:
		t.Errorf("why widget/w-fail: key %s with %d failures, want backoff: %s", b.Key.State, b.Key.Failures, w.Text)
	case a.Summary == "":
		t.Errorf("why widget/w-fail: no summary")
	}

	if f := run.Calls[2]; !f.IsError || !bytes.Contains([]byte(f.Text), []byte("--allow-write")) {
		t.Errorf("forget without --allow-write: isError %v, %q; want refused, naming --allow-write", f.IsError, f.Text)
	}
}

// decodeCall reads a call's structured answer, or says its tool error.
func decodeCall(isError bool, text string, structured json.RawMessage, v any) error {
	if isError {
		return fmt.Errorf("tool error: %s", text)
	}
	return json.Unmarshal(structured, v)
}
