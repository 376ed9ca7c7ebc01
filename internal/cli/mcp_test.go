package cli

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
)

// TestMCPOptions: a --listen that is not loopback is refused naming the
// flag that allows it; the sources are refused together as every command
// refuses them.
func TestMCPOptions(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		flags   map[string]string
		wantErr string
	}{
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen": "0.0.0.0:8090"}, "--listen 0.0.0.0:8090: not a loopback address"},
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen": "10.1.2.3:8090"}, "give --listen-any to serve on 10.1.2.3 anyway"},
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen": "nonsense"}, `--listen "nonsense": want HOST:PORT`},
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen-any": "true"}, "--listen-any allows a --listen address that is not loopback: give --listen too"},
		{nil, map[string]string{"addr": "127.0.0.1:1", "file": "snap.json"}, "--file snap.json serves a snapshot: drop"},
		{[]string{"deploy/x"}, map[string]string{"addr": "127.0.0.1:1"}, "--addr talks to one endpoint directly"},
		{nil, map[string]string{"addr": "127.0.0.1:1", "from-logs": "x.log"}, "--from-logs reads a log and --addr an endpoint"},
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen": "0.0.0.0:8090", "listen-any": "true"}, ""},
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen": "[::1]:8090"}, ""},
		{nil, map[string]string{"addr": "127.0.0.1:1", "listen": "localhost:8090"}, ""},
	} {
		cmd, o := newMCPCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
		for k, v := range tc.flags {
			if err := cmd.Flags().Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		err := o.Complete(tc.args)
		if err == nil {
			err = o.Validate()
		}
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%v %v: %v", tc.args, tc.flags, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%v %v: error %v; want %q", tc.args, tc.flags, err, tc.wantErr)
		}
	}
}

// TestMCPCommand runs `mcp --addr DEMO --listen 127.0.0.1:0` and talks to it
// with the SDK's streamable HTTP client: the tools are listed, keys answers
// from the demo, and forget is refused without --allow-write.
func TestMCPCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the demo")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	opts := demo.DefaultOptions()
	opts.Keys, opts.Seed, opts.Speed, opts.Listen, opts.Out, opts.ErrOut = 50, 42, 20, "127.0.0.1:0", io.Discard, io.Discard
	d, err := demo.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = d.Wait() })

	var errOut lockedBuilder
	cs, served := serveMCP(ctx, t, &errOut, "--addr", d.Addr().String())
	var tools []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool.Name)
	}
	if len(tools) != 7 {
		t.Errorf("tools = %v, want 7", tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "keys", Arguments: map[string]any{"limit": 5}})
	if err != nil || res.IsError || res.StructuredContent == nil {
		t.Fatalf("keys: %v, %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "forget", Arguments: map[string]any{"keys": []string{"demo/outage-00001"}}})
	if err != nil || !res.IsError {
		t.Errorf("forget without --allow-write: %v, IsError %v; want refused", err, res.IsError)
	} else if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "restart it with `kubectl backoff mcp --addr "+d.Addr().String()+" --listen 127.0.0.1:0 --allow-write`") {
		t.Errorf("forget refused with %q; want it to repeat how this server was started, with --allow-write", text)
	}
	cs.Close()
	cancel()
	if err := <-served; err != nil {
		t.Errorf("mcp after its context ended: %v", err)
	}
	if !strings.Contains(errOut.String(), "Serving MCP (streamable HTTP) on http://127.0.0.1:") {
		t.Errorf("stderr %q: want where it serves", errOut.String())
	}
}

// TestMCPErrors: a tool's error is the CLI's sentence (a refused
// connection names the address and what to try), and nothing of the
// kubeconfig but the user's name reaches an answer, even a failing one.
func TestMCPErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	const secret = "s3cr3t-t0ken-do-not-print"
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://`+closed+`"}}]
users: [{name: alice, user: {token: `+secret+`}}]
contexts: [{name: c, context: {cluster: c, user: alice}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var errOut lockedBuilder
	cs, served := serveMCP(ctx, t, &errOut, "--addr", closed, "--kubeconfig", kubeconfig, "--allow-write")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"keys", nil, "cannot connect to " + closed + ": connection refused; is an endpoint listening there?"},
		{"controllers", nil, "connection refused"},
		{"key", map[string]any{"key": "demo/a"}, "connection refused"},
		{"error_groups", nil, "connection refused"},
		{"why", map[string]any{"object": "configmap/a", "namespace": "demo"}, "dial tcp " + closed + ": connect: connection refused"}, // the API server, in why's words
		{"forget", map[string]any{"keys": []string{"demo/a"}, "controller": "naive"}, "connection refused"},
		{"kick", map[string]any{"keys": []string{"demo/a"}}, ""},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: protocol error %v", c.tool, err)
		}
		b, _ := json.Marshal(res)
		if !res.IsError || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %s; want a tool error containing %q", c.tool, b, c.want)
		}
		t.Logf("%s: %s", c.tool, b)
		if strings.Contains(string(b), secret) {
			t.Errorf("%s: the kubeconfig's token in the answer: %s", c.tool, b)
		}
	}
	cs.Close()
	cancel()
	<-served
	if strings.Contains(errOut.String(), secret) || !strings.Contains(errOut.String(), `mcp forget controller="naive"`) {
		t.Errorf("stderr: %s\nwant the forget audited, and no token", errOut.String())
	}
}

// serveMCP runs `mcp ARGS --listen 127.0.0.1:0` until ctx ends, and connects
// the SDK's streamable HTTP client to it; served has the command's end.
func serveMCP(ctx context.Context, t *testing.T, errOut io.Writer, args ...string) (cs *mcp.ClientSession, served chan error) {
	t.Helper()
	cf := genericclioptions.NewConfigFlags(true)
	cmd, o := newMCPCommand(cf, genericiooptions.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: errOut})
	addrs := make(chan net.Addr, 1)
	o.ready = func(a net.Addr) { addrs <- a }
	cf.AddFlags(cmd.Flags()) // --kubeconfig, as the root adds them
	cmd.SetArgs(append(args, "--listen", "127.0.0.1:0"))
	served = make(chan error, 1)
	go func() { served <- cmd.ExecuteContext(ctx) }()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-served:
		t.Fatalf("mcp ended before serving: %v", err)
	case <-ctx.Done():
		t.Fatal("mcp did not serve within a minute")
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "v1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr.String() + "/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, served
}

// lockedBuilder is stderr written by the server's goroutines.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMCPErrorGroupsFromLogs: on a log, error_groups counts the keys log
// mode calls unknown (quiet after their error, the retry's outcome not
// logged) as get --group-by error does; by default it counted only backoff
// and failed, and said 1 of the demo's 17 conflicting keys.
func TestMCPErrorGroupsFromLogs(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var errOut lockedBuilder
	cs, served := serveMCP(ctx, t, &errOut, "--from-logs", "../inspector/logs/testdata/demo/conflicts.log")
	matched := func(args map[string]any) (int, string) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "error_groups", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("error_groups %v: %v, %+v", args, err, res)
		}
		var out struct{ Matched int }
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out.Matched, res.Content[0].(*mcp.TextContent).Text
	}
	all, text := matched(map[string]any{})
	failing, _ := matched(map[string]any{"state": "backoff,failed"})
	if all != 17 || failing >= all || !strings.Contains(text, "states backoff,failed,unknown") {
		t.Errorf("error_groups: %d keys by default (%q), %d backoff or failed; want the log's 17, unknown ones included", all, text, failing)
	}
	cs.Close()
	cancel()
	<-served
}
