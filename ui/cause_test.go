package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// goneError is what the inspector's client really returns for v1/key once
// the endpoint is gone: a server started, then closed.
func goneError(t *testing.T) error {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	msg := view.DetailCmd(context.Background(), s, nil, fixedClock, "naive", "demo/naive-00001")().(view.DetailFetchedMsg)
	if msg.Err == nil || !strings.Contains(msg.Err.Error(), "connection refused") {
		t.Fatalf("want a connection refused from a closed server, got %v", msg.Err)
	}
	return msg.Err
}

// When the endpoint goes away, the detail view says what failed and why at
// 120 columns: the long URL (twice in the client's error) no longer pushes
// "connection refused" off the line, before or after a first answer.
func TestDetailShowsTheCauseOfAFailedRead(t *testing.T) {
	gone := goneError(t)
	for _, c := range []struct {
		name string
		m    Model
	}{
		{"never read", func() Model {
			m := loaded(t, 120, 30)
			m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
			return m
		}()},
		{"read before", detailOf(t, loaded(t, 120, 30))},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := send(t, c.m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Err: gone, FetchedAt: t0})
			var line string
			for _, l := range splitLines(screen(m)) {
				if strings.Contains(l, "✗") {
					line = l
				}
			}
			if !strings.Contains(line, "✗ GET v1/key: dial tcp 127.0.0.1:") || !strings.HasSuffix(strings.TrimRight(line, " "), "connection refused") {
				t.Errorf("the failure line %q: want what failed (GET v1/key) and why (connection refused), whole:\n%s", line, screen(m))
			}
		})
	}
}
