// Package mcpserver is `kubectl backoff mcp`: the answers of get, describe,
// why and get --group-by error, served to AI assistants over the Model
// Context Protocol, on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
//	kubectl backoff mcp --addr 127.0.0.1:8082          # stdio: what an assistant's MCP config starts
//	kubectl backoff mcp deploy/my-controller -n my-system --listen 127.0.0.1:8090
//
// The command attaches as every command does (--addr, a TARGET through
// port-forward, -A, --from-logs, --file) and hands the session to New:
//
//	s := mcpserver.New(mcpserver.Config{Session: session, Version: version})
//	err := mcpserver.ServeStdio(ctx, s)
//
// Tools, each with a JSON schema for its input and its structured output (the
// v1 wire types) and a short text summary: controllers, keys, key,
// error_groups, why; forget and kick only with Config.AllowWrite
// (the command's --allow-write), otherwise refused with a tool error that says how to
// enable them. Prompts: debug_stuck_object and incident.
//
// Guarantees: every answer is bounded (at most 100 keys, 20 error groups with
// 5 examples, 16 attempts, 1,000 characters a string), and says how many it
// left out and the input that asks for them; every string from a cluster or
// a log is escaped as the CLI's printers escape it (text.Printable); errors are
// tool errors (IsError) in the CLI's words, naming the tool's input rather
// than the flag; a write is recorded by the endpoint with who asked (the MCP
// client's name and the user) and audited on Config.Audit. The HTTP
// transport listens where the command says (it refuses an address that is
// not loopback unless told otherwise), refuses foreign Hosts (DNS rebinding) and cross-origin
// browser requests. Nothing here reads the kubeconfig: the command does, and
// passes only what a tool needs, so no credential reaches an answer.
package mcpserver
