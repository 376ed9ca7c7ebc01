package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHistorySaysItIsTheLastAttempts: the history holds the last
// api.HistorySize attempts; a key of 19 reconciles printed 16 rows under
// "History (oldest first):", its first a "retry" of nothing shown, beside
// "19 consecutive failures": the title says which attempts these are, as
// top's "Attempts (last 16, oldest first)" does.
func TestHistorySaysItIsTheLastAttempts(t *testing.T) {
	at := time.Date(2026, 12, 7, 16, 33, 25, 0, time.UTC)
	var hist []api.Attempt
	for i := range 16 {
		hist = append(hist, api.Attempt{At: at.Add(time.Duration(i) * time.Second), Outcome: api.OutcomeError, Trigger: api.TriggerRetry})
	}
	for _, tt := range []struct {
		reconciles int
		want       string
	}{
		{19, "\nHistory (the last 16 of 19 reconciles, oldest first):\n"},
		{16, "\nHistory (oldest first):\n"},
		{0, "\nHistory (oldest first):\n"}, // a server that does not count them
	} {
		var b bytes.Buffer
		printHistory(&b, hist, tt.reconciles)
		if !strings.HasPrefix(b.String(), tt.want) {
			t.Errorf("%d reconciles, 16 attempts: history begins %q, want %q", tt.reconciles, strings.SplitN(b.String(), "\n", 3)[1], tt.want)
		}
	}
}
