package explain

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A saved log is judged as of its last line: a countdown from that line is
// said to be from it, since "in 5m24s" would read as from now and never
// move. A live log (and the instrument) counts down from now, as before.
func TestCountdownFromLogEnd(t *testing.T) {
	end := time.Date(2026, 12, 1, 22, 8, 26, 0, time.UTC)
	backoff := api.Key{Controller: "outage", Key: "demo/outage-00005", State: api.StateBackoff, Failures: 9,
		NextRetryAt: end.Add(5*time.Minute + 24*time.Second), Delay: metav1.Duration{Duration: 10 * time.Minute},
		DelaySource: api.SourceItemExponential,
		LastError:   &api.ErrorRecord{Message: "503 Service Unavailable", At: end.Add(-4 * time.Minute)},
		Source:      api.SourceLogs, Estimated: true}
	queued := api.Key{Controller: "outage", Key: "demo/outage-00006", State: api.StateQueued,
		NextRetryAt: end.Add(-3 * time.Second), Source: api.SourceLogs, Estimated: true}
	saved := &api.ListSource{Kind: api.SourceLogs, EndsAt: end}
	live := &api.ListSource{Kind: api.SourceLogs}
	for _, tc := range []struct {
		name      string
		k         api.Key
		src       *api.ListSource
		want, not string
	}{
		{"saved log, backoff", backoff, saved, "Next retry at 22:13:50 (5m24s after the log's last line)", "(in "},
		{"live log, backoff", backoff, live, "Next retry at 22:13:50 (in 5m24s)", "last line"},
		{"no source read, backoff", backoff, nil, "Next retry at 22:13:50 (in 5m24s)", "last line"},
		{"saved log, queued", queued, saved, "came due at 22:08:23 (3.0s before the log's last line)", " ago"},
		{"live log, queued", queued, live, "came due at 22:08:23 (3.0s ago)", "last line"},
	} {
		d := Explain(Input{Key: tc.k, Controller: &api.Controller{Name: "outage", Active: true}, Source: tc.src, Now: end})
		if !strings.Contains(d.Summary, tc.want) || strings.Contains(d.Summary, tc.not) {
			t.Errorf("%s: summary %q; want it to say %q, not %q", tc.name, d.Summary, tc.want, tc.not)
		}
	}
}
