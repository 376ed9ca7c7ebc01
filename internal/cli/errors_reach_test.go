package cli_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// resetServer answers every request by resetting the connection, as a
// proxy or a crashing server may.
func resetServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // close sends RST, not FIN
		}
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// TestUnreachableSaysTheAddressOnce: an address that cannot be reached, or
// a web server that is not an endpoint, is named once, as host:port, with
// the flag it came from, in one line.
func TestUnreachableSaysTheAddressOnce(t *testing.T) {
	web := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(web.Close)
	webAddr := web.Listener.Addr().String()
	reset := resetServer(t)
	for _, tt := range []struct {
		name, addr, want, host string
	}{
		{"bad port", "localhost:80822", "cannot reach localhost:80822 (--addr): dial tcp: address 80822: invalid port", "localhost:80822"},
		{"connection reset", reset, "cannot reach " + reset + " (--addr): read: connection reset by peer", reset},
		{"not an endpoint", webAddr, "no backoff endpoint at " + webAddr + "/debug/backoff/v1/", webAddr},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, newCmd := range []newCommand{cli.NewGetCommand, cli.NewSnapshotCommand} {
				err := run(newCmd, genericiooptions.NewTestIOStreamsDiscard(), "--addr", tt.addr)
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Count(err.Error(), tt.host) != 1 {
					t.Errorf("--addr %s: error = %v, want one beginning %q, naming the address once", tt.addr, err, tt.want)
				}
			}
			err := run(cli.NewDescribeCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", tt.addr, "default/w1")
			if err == nil || strings.Count(err.Error(), tt.host) != 1 || strings.Contains(err.Error(), "http://") {
				t.Errorf("describe --addr %s: error = %v, want the address once, without a URL", tt.addr, err)
			}
		})
	}
}
