package logs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestCoarseStampsKeepTheHistoryGrowing: a log saved with whole-second
// stamps (logrus' default text, a log store's export) of a key retried by
// client-go's exponential limiter (5ms·2^n, each retry 1ms late). Its
// failures' spacings, rounded to seconds, can look steady (2s then 2s
// for 1.28s then 2.56s) where the delays double: the estimated history
// must not shrink (the newcomer saw 1.3s, 2.6s, 2.0s on the demo's log),
// and each estimate stays the limiter's or above.
func TestCoarseStampsKeepTheHistoryGrowing(t *testing.T) {
	for _, start := range []time.Duration{0, 300 * time.Millisecond, 700 * time.Millisecond, 900 * time.Millisecond} {
		t.Run(fmt.Sprint("start +", start), func(t *testing.T) {
			at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC).Add(start)
			var b strings.Builder
			for n := 1; n <= 14; n++ {
				fmt.Fprintf(&b, "time=%q level=error msg=\"error syncing 'demo/web': quota exceeded, requeuing\"\n", at.Truncate(time.Second).Format(time.RFC3339))
				at = at.Add(DefaultLimiter.Delay(n) + time.Millisecond)
			}
			s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(at.Add(time.Hour))})
			if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
				t.Fatal(err)
			}
			k, err := s.Key("", "demo/web")
			if err != nil {
				t.Fatal(err)
			}
			var prev time.Duration
			var delays []string
			for _, a := range k.History {
				if a.Outcome != api.OutcomeError {
					continue
				}
				delays = append(delays, a.Delay.Duration.String())
				if a.Delay.Duration < prev {
					t.Errorf("history %v: a delay shrinks", delays)
					break
				}
				prev = a.Delay.Duration
			}
			if k.Failures != 14 {
				t.Errorf("%d failures, want 14 (one streak)", k.Failures)
			}
		})
	}
}
