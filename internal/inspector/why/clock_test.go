package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// TestOneClock: the answer the tool is named for (the quota raised after
// the ReplicaSet's last failure) and the ReplicaSet's own backoff, read
// from kube-controller-manager's log (--from-logs), say one retry time,
// counted from one clock (issue 41's newcomer, item 3: "in about 23s" in
// one sentence, "next retry in 40s" in the next). A log whose last line is
// recent counts from now, as the cluster does; a saved one from its last
// line, and says so.
func TestOneClock(t *testing.T) {
	for _, tc := range []struct {
		name     string
		now      time.Time
		from     time.Time // what the countdowns count from
		savedLog bool
	}{
		{name: "live log", now: time.Date(2016, 10, 4, 12, 31, 2, 0, time.UTC), from: time.Date(2016, 10, 4, 12, 31, 2, 0, time.UTC)},
		{name: "saved log", now: time.Date(2016, 10, 4, 15, 0, 0, 0, time.UTC), from: time.Date(2016, 10, 4, 12, 28, 22, 835e6, time.UTC), savedLog: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", "chain/resourcequota-object-counts-raised.yaml")
			a.Now = func() time.Time { return tc.now }
			a.FromLog = kcmQuotaLog(t, "")
			ans := a.Ask(context.Background(), u, "deployments")
			if len(ans.Blockers) != 1 || ans.Blockers[0].Retry == nil || ans.Blockers[0].Backoff == nil || ans.Blockers[0].Backoff.Key == nil {
				t.Fatalf("blockers' answers %+v; want the ReplicaSet's, with its retry and its key from the log", ans.Blockers)
			}
			rs := ans.Blockers[0]
			if got := rs.Clock(); !got.Equal(tc.from) {
				t.Errorf("the answer counts from %v; want %v", got, tc.from)
			}
			next := rs.Backoff.Key.NextRetryAt
			if next.IsZero() || !next.After(tc.from) {
				t.Fatalf("next retry %v; want one after %v (the key backs off)", next, tc.from)
			}
			in := text.Countdown(next, tc.from)
			if want := "in about " + in; !strings.Contains(rs.Retry.Sentence, want) {
				t.Errorf("the blocker's sentence:\n %s\nlacks %q", rs.Retry.Sentence, want)
			}
			if want := "next retry in " + in; !strings.Contains(rs.Summary, want) {
				t.Errorf("the ReplicaSet's summary:\n %s\nlacks %q (the sentence's retry)", rs.Summary, want)
			}
			asOf := "in about 2m43s, counted from the log's last line at 12:28:22 (16 failures"
			if got := strings.Contains(rs.Retry.Sentence, asOf); got != tc.savedLog {
				t.Errorf("the sentence says %q: %v; want %v:\n %s", asOf, got, tc.savedLog, rs.Retry.Sentence)
			}
			if got := strings.Contains(rs.Backoff.Note, "as of its last line"); got != tc.savedLog {
				t.Errorf("the backoff's note %q says it counts from the log's last line: %v; want %v", rs.Backoff.Note, got, tc.savedLog)
			}
		})
	}
}
