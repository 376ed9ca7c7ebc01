package inspector

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// A pod with no port named backoff is tried on the default port; when that
// fails, the error is a GuessedPortError: it says the controller may not be
// instrumented, and a caller can tell it from any refusal (the CLI adds
// --from-logs).
func TestGuessedPortTransport(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	pod := Pod{Namespace: "ops", Name: "ctrl-0", Port: cluster.DefaultPort, PortGuessed: true}
	c := &http.Client{Transport: guessed{http.DefaultTransport, pod}}
	_, err = c.Get("http://" + addr + "/debug/backoff/v1/controllers")
	g, ok := errors.AsType[*GuessedPortError](err)
	if !ok || g.Pod != pod || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("error = %v, want a GuessedPortError for %s wrapping the refusal", err, pod)
	}
	if want := `(pod ops/ctrl-0 has no container port named "backoff", so port 8082 was tried: is the controller instrumented?)`; !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error = %v, want it to end %q", err, want)
	}
}
