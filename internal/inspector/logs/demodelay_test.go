package logs

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// On a log stamped to the whole second, a key on its doubling ramp whose
// next failure comes as long after as the last (a retry after 5.12s, read
// 5s, then an event 5s later) is not on a steady period: the history's
// delays under a per-item exponential never run backwards (they ran 10s,
// 5.0s, 41s), and the event reads as sooner than its retry, not later.
func TestCoarseRampDelaysDoNotRunBackwards(t *testing.T) {
	b, err := os.ReadFile("testdata/demo/naive-00002.log")
	if err != nil {
		t.Fatal(err)
	}
	s := readLog(t, time.Date(2026, 12, 6, 10, 12, 7, 0, time.UTC), strings.Split(strings.TrimSpace(string(b)), "\n")...)
	k := keyDetail(t, s, "naive", "demo/naive-00002")
	var prev time.Duration
	for i, a := range k.History {
		if a.Delay.Duration < prev {
			t.Errorf("row %d (%s): delay %v after %v: runs backwards", i, a.At.Format(time.TimeOnly), a.Delay.Duration, prev)
		}
		prev = a.Delay.Duration
		if a.At.Equal(time.Date(2026, 12, 6, 10, 0, 36, 0, time.UTC)) && a.Trigger != api.TriggerSooner {
			t.Errorf("10:00:36 read %q; want sooner (its retry was due 20.48s after 10:00:24)", a.Trigger)
		}
	}
	if k.Failures != 21 || k.DelaySource != api.SourceItemExponential || k.Delay.Duration != 1000*time.Second {
		t.Errorf("%d failures, delay %v (%s); want 21, 16m40s (item-exponential)", k.Failures, k.Delay.Duration, k.DelaySource)
	}
}

// A key the demo's naive controller fails on while its object is edited
// every minute or so: after the ramp, every failure comes sooner than its
// capped retry (16m40s), an event each; two of those came 1m12s apart by
// chance (whole-second stamps). That is no period: the limiter's count
// never restarts without a success (Forget), so the key stays in its
// 16m40s backoff with every failure counted, as the instrument showed
// (backoff, 33 failures, its next retry at 21:11:09); two equal spacings
// once cut the delay to 1m12s and then read each later event as a
// success not logged, "1 failure, backing off 5ms".
func TestEventsTwiceAlikeAreNoPeriod(t *testing.T) {
	b, err := os.ReadFile("testdata/demo/naive-00003.log")
	if err != nil {
		t.Fatal(err)
	}
	s := readLog(t, time.Date(2026, 12, 6, 20, 56, 17, 0, time.UTC), strings.Split(strings.TrimSpace(string(b)), "\n")...)
	k := keyDetail(t, s, "naive", "demo/naive-00003")
	if k.Failures != 34 || k.State != api.StateBackoff || k.Delay.Duration != 1000*time.Second || k.DelaySource != api.SourceItemExponential {
		t.Errorf("%s, %d failures, delay %v (%s); want backoff, 34, 16m40s (item-exponential)", k.State, k.Failures, k.Delay.Duration, k.DelaySource)
	}
	for i, a := range k.History {
		if a.Trigger == api.TriggerLate {
			t.Errorf("row %d (%s) read as later than its retry: a success not logged", i, a.At.Format(time.TimeOnly))
		}
	}
}
