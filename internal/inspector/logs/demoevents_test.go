package logs

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A naive key of the demo, edited on the demo's 3s ticker, fails a
// multiple of 3s apart for an hour and never succeeds (its reconciler
// always errs, so the queue never forgets it: one streak). Three equal
// spacings come by chance (3s, 3s, 3s up to 20:37:05, four spacings after
// one of 15s); read as a period, they cut the estimated delay from 16m40s
// to the spacing, and the next longer gap ended the streak as a success
// not logged, again and again: "48 failures since the count restarted at
// 20:40:53", of 270. A period shorter than a spacing its streak already
// showed is no limiter's: every failure of the log is one streak.
func TestEventsOnATickerAreNoPeriod(t *testing.T) {
	b, err := os.ReadFile("testdata/demo/naive-00001-events.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	s := readLog(t, time.Date(2026, 12, 7, 20, 53, 6, 0, time.UTC), lines...)
	k := keyDetail(t, s, "naive", "demo/naive-00001")
	first := time.Date(2026, 12, 7, 19, 51, 56, 0, time.UTC)
	if k.Failures != len(lines) || !k.FirstFailureAt.Equal(first) {
		t.Errorf("%d failures since %s; want %d (every line: the key never succeeded) since %s",
			k.Failures, k.FirstFailureAt.Format(time.TimeOnly), len(lines), first.Format(time.TimeOnly))
	}
	if k.State != api.StateBackoff || k.Delay.Duration != 1000*time.Second || k.DelaySource != api.SourceItemExponential {
		t.Errorf("%s, delay %v (%s); want backoff, 16m40s (item-exponential)", k.State, k.Delay.Duration, k.DelaySource)
	}
}
