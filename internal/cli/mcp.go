package cli

import (
	"cmp"
	"context"
	"fmt"
	"net"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/mcpserver"
)

// MCPOptions are the options of `kubectl backoff mcp`.
type MCPOptions struct {
	attachOptions
	genericiooptions.IOStreams

	// Listen serves the streamable HTTP transport there instead of stdio.
	Listen string
	// ListenAny allows a --listen address that is not loopback.
	ListenAny bool
	// AllowWrite enables the forget and kick tools.
	AllowWrite bool
	// File serves a snapshot instead of a live source.
	File string

	maxSnapshotSize string
	// startedWith is the command line that started the server.
	startedWith string
	snap        *snapshot.File
	fromLogs    fromLogsOptions
	// ready, when set (tests), hears the address --listen bound.
	ready func(net.Addr)
}

// listenAnyFlag is the flag that allows a non-loopback --listen.
const listenAnyFlag = "--listen-any"

// NewMCPCommand returns `kubectl backoff mcp [TARGET]`.
func NewMCPCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	cmd, _ := newMCPCommand(cf, streams)
	return cmd
}

func newMCPCommand(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) (*cobra.Command, *MCPOptions) {
	o := &MCPOptions{attachOptions: newAttachOptions(cf), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "mcp [TARGET]",
		Short: "Serve the answers of get, describe and why to AI assistants (Model Context Protocol)",
		Long: `Serve an MCP server on stdin/stdout (what an assistant's MCP configuration starts),
or with --listen on the streamable HTTP transport, loopback only unless
` + listenAnyFlag + ` says otherwise. It reads the same sources as every command: an
endpoint (--addr), a controller through port-forward (TARGET, -A), a log
(--from-logs), a snapshot (--file).

Tools: controllers, keys (filtered and sorted as get), key (as describe, with
its history), error_groups (as get --group-by error), why (TYPE/NAME, as why;
needs a cluster). forget and kick change the controller's state: they are
refused unless --allow-write is given, and every call is recorded with the
client's name and your user (by the endpoint, and on stderr). Prompts:
debug_stuck_object, incident. Every answer is bounded and says what it left
out. docs/mcp.md has the configuration for Claude, VS Code and Cursor.`,
		Example: `  # In an assistant's MCP config: the command and its arguments
  kubectl backoff mcp deploy/my-controller -n my-system

  # The demo, over HTTP on loopback, forget allowed
  kubectl backoff mcp --addr 127.0.0.1:8082 --listen 127.0.0.1:8090 --allow-write`,
		RunE: func(cmd *cobra.Command, args []string) error {
			// A refused write says how to restart this same server.
			o.startedWith = startedWith(cmd, args, "allow-write")
			return runE(o)(cmd, args)
		},
	}
	o.addFlags(cmd.Flags())
	o.fromLogs.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Listen, "listen", o.Listen, "Serve the streamable HTTP transport on this HOST:PORT (loopback) instead of stdio")
	cmd.Flags().BoolVar(&o.ListenAny, "listen-any", o.ListenAny, "Allow --listen on an address that is not loopback: whoever reaches it gets your kubeconfig's view of the controllers")
	cmd.Flags().BoolVar(&o.AllowWrite, "allow-write", o.AllowWrite, "Enable the forget and kick tools (each call is audited); read-only without it")
	cmd.Flags().StringVar(&o.File, "file", o.File, "Serve a snapshot (kubectl backoff snapshot) instead of a live source")
	addMaxSnapshotSize(cmd.Flags(), &o.maxSnapshotSize)
	return cmd, o
}

// Complete takes the target from args and resolves kubeconfig when a
// source or why needs it.
func (o *MCPOptions) Complete(args []string) error {
	rest, err := o.completeTarget(args)
	if err != nil {
		return err
	}
	if o.addrTarget != "" {
		rest = rest[1:] // not a key: Validate says it does not go with --addr
	}
	if rest = o.fromLogs.complete(rest, &o.attachOptions); len(rest) > 0 {
		return fmt.Errorf("mcp takes at most a TARGET (KIND/NAME), not %q", rest[0])
	}
	o.completeLogsCluster(&o.fromLogs, o.File == "")
	return nil
}

// Validate checks every flag, naming the one at fault.
func (o *MCPOptions) Validate() error {
	if o.Listen != "" {
		if err := checkListen(o.Listen, o.ListenAny); err != nil {
			return err
		}
	} else if o.ListenAny {
		return fmt.Errorf("%s allows a --listen address that is not loopback: give --listen too", listenAnyFlag)
	}
	if o.File != "" {
		if o.addr != "" || !o.target.IsZero() || o.allNamespaces || o.fromLogs.enabled() {
			return fmt.Errorf("--file %s serves a snapshot: drop the TARGET, --addr, -l, -A and --from-logs", o.File)
		}
		snap, err := readSnapshot(nil, "--file", o.File, o.maxSnapshotSize) // no context in Validate: a FIFO is read as a file
		if err != nil {
			return err
		}
		o.snap = snap
		return nil
	}
	if err := o.fromLogs.validate(&o.attachOptions); err != nil {
		return err
	}
	return o.attachOptions.validate()
}

// Run attaches and serves until the client goes (stdio) or ctx ends.
func (o *MCPOptions) Run(ctx context.Context) error {
	s, objects, err := o.open(ctx)
	if err != nil {
		return o.explainError(err)
	}
	defer s.Close()
	cfg := mcpserver.Config{
		Session: s, Objects: objects, AllowWrite: o.AllowWrite, AllowWriteHow: "restart it with `" + cmp.Or(o.startedWith, "kubectl backoff mcp") + " --allow-write`", User: o.requester(),
		Version: version(), ExplainError: o.explainError, Audit: o.ErrOut,
		NoWhy: noWhy, NoKick: kickNeedsCluster + "; start the server with a kubeconfig (not only --addr)",
		FromLogs: o.fromLogs.enabled(),
	}
	if !o.fromLogs.enabled() && o.File == "" {
		cfg.Attach = o.attachArgs()
	}
	if !noClusterIn(o.configFlags) {
		cfg.Why = o.whyFunc(s)
		if o.AllowWrite {
			cfg.Kick = o.kickFunc(s)
		}
	}
	srv := mcpserver.New(cfg)
	if o.Listen == "" {
		// stdout is the protocol's: nothing else may be written to it.
		if readerIsTerminal(o.In) {
			fmt.Fprintln(o.ErrOut, mcpStdioNote)
		}
		return stdioError(mcpserver.ServeStdio(ctx, srv))
	}
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", o.Listen, err)
	}
	fmt.Fprintf(o.ErrOut, "Serving MCP (streamable HTTP) on http://%s/ (read-only: %v)\n", ln.Addr(), !o.AllowWrite)
	if o.ready != nil {
		o.ready(ln.Addr())
	}
	return mcpserver.ServeHTTP(ctx, srv, ln)
}

// noWhy is why the why tool is refused without a cluster.
const noWhy = "why reads the object from the API server, and this server has no cluster: start it with --kubeconfig/--context (or KUBECONFIG)"

// open is the session every command reads: a snapshot, a log, or an
// endpoint attached directly or through port-forward. A log is read to its
// end first, as get reads it; a live one (a TARGET's) keeps being read.
func (o *MCPOptions) open(ctx context.Context) (*inspector.Session, *describe.ObjectReader, error) {
	if o.snap != nil {
		return inspector.InProcessSession(nil, snapshot.Handlers(o.snap)...), nil, nil
	}
	// Notes (waiting for a log, several pods found) go to stderr: stdout is
	// the protocol's.
	streams := o.IOStreams
	streams.Out = o.ErrOut
	return o.fromLogs.open(ctx, &o.attachOptions, streams, o.fromLogs.source == fromTarget)
}

// checkListen refuses a --listen that is not loopback unless allowAny
// (--listen-any) says it may be: the server answers with what the
// controllers do, and with --allow-write acts on them, for whoever reaches
// it, with the user's kubeconfig.
func checkListen(addr string, allowAny bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: want HOST:PORT, e.g. 127.0.0.1:8090", addr)
	}
	if allowAny || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--listen %s: not a loopback address; the server answers anyone who reaches it, with your kubeconfig's access: listen on 127.0.0.1, or give %s to serve on %s anyway", addr, listenAnyFlag, host)
}
