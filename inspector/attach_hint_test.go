package inspector

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// A pod with no port named backoff is tried on the default port; when that
// fails, the error says the controller may not be instrumented and that
// --from-logs exists.
func TestHintedTransport(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c := &http.Client{Transport: hinted{http.DefaultTransport, "add --from-logs to read its logs"}}
	_, err = c.Get("http://" + addr + "/debug/backoff/v1/controllers")
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "--from-logs") {
		t.Errorf("error = %v, want the refusal and the --from-logs hint", err)
	}
}
