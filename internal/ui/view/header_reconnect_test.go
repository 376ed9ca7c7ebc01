package view

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// A pod's connection state is read with the overview; a read that then
// hangs (a port-forward whose pod took the connection and said nothing)
// leaves it standing while its retry time passes. Seen on a controller
// killed under top: "◌ reconnecting in due: …" for seconds. A retry time
// past is a retry under way: no countdown; one ahead counts down.
func TestHeaderReconnectingPastRetry(t *testing.T) {
	now := time.Date(2026, 12, 7, 5, 24, 0, 0, time.UTC)
	c := &Common{Width: 160, Height: 30, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
		Opts: Options{Clock: func() time.Time { return now }, Refresh: time.Second}}
	conn := inspector.ConnState{Phase: inspector.PhaseReconnecting, Pod: "my-system/ctrl-0", LastError: "lost connection to pod"}
	for _, tc := range []struct {
		retryAt time.Time
		want    string
	}{
		{now.Add(-3 * time.Second), "◌ reconnecting: lost connection to pod"},
		{now.Add(12 * time.Second), "◌ reconnecting in 12s: lost connection to pod"},
	} {
		conn.RetryAt = tc.retryAt
		m := &TopModel{C: c, Overview: &inspector.Overview{Replicas: []inspector.Replica{{Endpoint: "my-system/ctrl-0", Conn: conn}}}}
		h := TopHeader{C: c, M: m, Filter: &widget.Filter{}}
		if got := ansi.Strip(strings.Join(h.Lines(), "\n")); !strings.Contains(got, tc.want) {
			t.Errorf("retry at %s (now %s): header lacks %q:\n%s", tc.retryAt.Format(time.TimeOnly), now.Format(time.TimeOnly), tc.want, got)
		}
	}
}
