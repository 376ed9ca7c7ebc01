package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CheckListen refuses an address that is not loopback unless allowAny says it
// may be (--listen-any): the server answers with what the controllers
// do, and with --allow-write acts on them, for whoever reaches it, with the
// user's kubeconfig. flag is how the error names the flag that allows it.
func CheckListen(addr string, allowAny bool, flag string) error {
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
	return fmt.Errorf("--listen %s: not a loopback address; the server answers anyone who reaches it, with your kubeconfig's access: listen on 127.0.0.1, or give %s to serve on %s anyway", addr, flag, host)
}

// ServeHTTP serves s over the streamable HTTP transport on ln until ctx
// ends. The SDK refuses a request to a loopback listener whose Host is not
// loopback (DNS rebinding); a cross-origin browser request is refused too,
// as the endpoint's forget refuses one.
func ServeHTTP(ctx context.Context, s *mcp.Server, ln net.Listener) error {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute})
	srv := &http.Server{Handler: http.NewCrossOriginProtection().Handler(h), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ServeStdio serves s on stdin and stdout until the client closes them or
// ctx ends: what an assistant's MCP config starts.
func ServeStdio(ctx context.Context, s *mcp.Server) error {
	err := s.Run(ctx, &mcp.StdioTransport{})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
