package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// TestFixMadeSaysWhatNow: the quota raised after the ReplicaSet's last
// failure, its backoff read from kube-controller-manager's log
// (--from-logs kcm.log --controller-log kube-controller-manager). After
// "Your change … came after the last failure", the steps say what to do
// now, the retry's time or the kick, not "Fix what the error names: …
// exceeded quota", the fix already made (README's own example said both).
// The quota still full, the fix is still asked for.
func TestFixMadeSaysWhatNow(t *testing.T) {
	const kick = "`kubectl backoff kick --kind ReplicaSet.apps default/nginx-deployment-4262182780`"
	for _, tc := range []struct {
		name, quota string
		raised      bool
	}{{"raised", "chain/resourcequota-object-counts-raised.yaml", true}, {"still full", "chain/resourcequota-object-counts.yaml", false}} {
		t.Run(tc.name, func(t *testing.T) {
			a, u := quotaAsker(t, "chain/replicaset-quota-kcm.yaml", tc.quota)
			a.Now = func() time.Time { return time.Date(2016, 10, 4, 12, 31, 2, 0, time.UTC) }
			a.FromLog = kcmQuotaLog(t, kcmManager)
			ans := a.Ask(context.Background(), u, "deployments")
			if len(ans.Blockers) != 1 || ans.Blockers[0].Backoff == nil || ans.Blockers[0].Backoff.Key == nil {
				t.Fatalf("blockers' answers %+v; want the ReplicaSet's, its key from the log", ans.Blockers)
			}
			rs := ans.Blockers[0]
			all := strings.Join(ans.Next, "\n")
			if !tc.raised {
				if rs.Retry != nil || !strings.Contains(all, "Fix what the error names: ") {
					t.Errorf("the quota still full, the fix is not asked for:\n%s", all)
				}
				return
			}
			if rs.Retry == nil || rs.Retry.NextRetry.IsZero() {
				t.Fatalf("retry %+v; want the change after the last failure, and the retry's time", rs.Retry)
			}
			if strings.Contains(all, "Fix what the error names") || strings.Contains(all, "Then retry at once") {
				t.Errorf("after the change, the fix already made is asked for:\n%s", all)
			}
			want := "Nothing left to fix: its error came before your change to resourcequota/object-counts. Wait for its retry at " +
				text.TimeOfDay(rs.Retry.NextRetry) + ", or retry now: " + kick
			if i := strings.Index(all, rs.Retry.Sentence); i < 0 || !strings.Contains(all[i:], want) {
				t.Errorf("steps:\n%s\nwant after the retry's sentence:\n%s", all, want)
			}
		})
	}
}
