package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestLongKeyLeavesTheErrorItsWords: a log's 130-rune key beside
// kube-controller-manager's quota error (replicaset-quota-raised-v4.log's
// words) and a lease's. At 160 columns the key kept all but what gave the
// error minErrorRoom, 30 cells, on every row: "boom…cleared", `pods
// "web-5fc9f4bf6…d: pods=1`, without "exceeded quota". The key now keeps
// half of what it shares with the error, and the error its cause; a short
// key is not cut, nor a key beside errors that fit whole.
func TestLongKeyLeavesTheErrorItsWords(t *testing.T) {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	long := "team-a/" + strings.Repeat("x", 123)
	quota := `pods "web-5fc9f4bf66-84qhz" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`
	lease := "the dependency went away and its lease was never cleared"
	key := func(k, msg string) inspector.PodKey {
		return inspector.PodKey{Key: api.Key{Controller: "replicaset-controller", Key: k, State: api.StateBackoff, Failures: 2, Source: api.SourceLogs,
			NextRetryAt: now.Add(time.Second), LastError: &api.ErrorRecord{Message: msg, At: now}}}
	}
	print := func(width int, keys ...inspector.PodKey) []string {
		var b bytes.Buffer
		printKeysFit(&b, &inspector.KeyList{ServerTime: now, Total: len(keys), Matched: len(keys), Items: keys}, false, false, width)
		return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	rows := print(160, key("q4/web-5fc9f4bf66", quota), key(long, lease))
	if !strings.Contains(rows[1], "exceeded quota") || !strings.Contains(rows[2], lease) {
		t.Errorf("160 columns: the errors lost their cause beside a 130-rune key:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.Contains(rows[2], "team-a/xxxxxxxxxxxxxxxxxxxx") || !strings.Contains(rows[2], "…") {
		t.Errorf("160 columns: the long key is not cut, keeping its start:\n%s", strings.Join(rows, "\n"))
	}
	rows = print(160, key(long[:100], "boom"))
	if !strings.Contains(rows[1], long[:100]+" ") {
		t.Errorf("160 columns: a key cut beside an error that fits whole:\n%s", strings.Join(rows, "\n"))
	}
}
