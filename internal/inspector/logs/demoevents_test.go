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
//
// naive-00003 of the same run read 6s, 6s, 6s sixteen failures into its
// ramp, when no longer spacing had come yet: a period, and the failure 30s
// later a success not logged, "216 failures since the count restarted at
// 19:59:59", of 258. A failure late only for a delay read off the spacing
// is a guessed restart, which no ramp followed: still one streak.
func TestEventsOnATickerAreNoPeriod(t *testing.T) {
	for _, c := range []struct {
		file, key string
		first     time.Time
	}{
		{"naive-00001-events.log", "demo/naive-00001", time.Date(2026, 12, 7, 19, 51, 56, 0, time.UTC)},
		{"naive-00003-events.log", "demo/naive-00003", time.Date(2026, 12, 7, 19, 51, 56, 0, time.UTC)},
	} {
		t.Run(c.key, func(t *testing.T) {
			lines := demoLines(t, c.file)
			s := readLog(t, time.Date(2026, 12, 7, 20, 53, 6, 0, time.UTC), lines...)
			k := keyDetail(t, s, "naive", c.key)
			if k.Failures != len(lines) || !k.FirstFailureAt.Equal(c.first) {
				t.Errorf("%d failures since %s; want %d (every line: the key never succeeded) since %s",
					k.Failures, k.FirstFailureAt.Format(time.TimeOnly), len(lines), c.first.Format(time.TimeOnly))
			}
			if k.State != api.StateBackoff || k.Delay.Duration != 1000*time.Second || k.DelaySource != api.SourceItemExponential {
				t.Errorf("%s, delay %v (%s); want backoff, 16m40s (item-exponential)", k.State, k.Delay.Duration, k.DelaySource)
			}
		})
	}
}

// The other side of the guess: had naive-00003 succeeded, unlogged,
// between 19:52:26 and its failure at 19:52:56, its count would restart
// there and its retries come on a fresh ramp (5ms, 10ms: the same whole
// second). The first ramp step confirms the guessed restart: the count is
// the ramp's, from 19:52:56, as the queue's would be.
func TestGuessedRestartConfirmedByARamp(t *testing.T) {
	lines := demoLines(t, "naive-00003-events.log")[:17] // up to 19:52:56, the guessed restart
	guessed := lines[16]
	lines = append(lines, guessed, guessed) // its retries after 5ms and 10ms, in the same second
	s := readLog(t, time.Date(2026, 12, 7, 19, 52, 57, 0, time.UTC), lines...)
	k := keyDetail(t, s, "naive", "demo/naive-00003")
	at := time.Date(2026, 12, 7, 19, 52, 56, 0, time.UTC)
	if k.Failures != 3 || !k.FirstFailureAt.Equal(at) || k.Delay.Duration != 20*time.Millisecond {
		t.Errorf("%d failures since %s, delay %v; want 3 since 19:52:56, 20ms (a fresh ramp)",
			k.Failures, k.FirstFailureAt.Format(time.TimeOnly), k.Delay.Duration)
	}
	n := len(k.History)
	if n < 3 || k.History[n-3].Trigger != api.TriggerNewStreak || k.History[n-2].Trigger != api.TriggerRetry {
		t.Errorf("history's last rows %+v; want new-streak, retry, retry", k.History[max(n-3, 0):])
	}
}

// demoLines is a demo fixture's lines.
func demoLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/demo/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}
