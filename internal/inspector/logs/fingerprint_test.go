package logs

import (
	"testing"
	"time"

	"k8s.io/client-go/util/workqueue"
)

// limiterTimes are the times of a key's first n failures on client-go's
// real default limiter (its When, as AddRateLimited calls it), each
// reconcile taking work, from t0; whole truncates them to the second, as
// encoders that write whole seconds do.
func limiterTimes(n int, work time.Duration, whole bool) []time.Time {
	lim := workqueue.DefaultTypedControllerRateLimiter[string]()
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var ts []time.Time
	for range n {
		t := at
		if whole {
			t = t.Truncate(time.Second)
		}
		ts = append(ts, t)
		at = at.Add(work + lim.When("default/c1"))
	}
	return ts
}

func everyGap(n int, gap time.Duration) []time.Time {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var ts []time.Time
	for i := range n {
		ts = append(ts, at.Add(time.Duration(i)*gap))
	}
	return ts
}

// TestFingerprint: the real limiter's times read as growing gaps, with
// fractional and whole-second stamps, and with a slow reconcile; equal gaps
// (a timed poll) and a leader election's jittered retries (2s·[1, 2.2),
// wait.JitterUntil with RetryPeriod 2s and JitterFactor 1.2) do not, and
// the poll reads as one.
func TestFingerprint(t *testing.T) {
	jittered := func(fs ...float64) []time.Time {
		at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		ts := []time.Time{at}
		for _, f := range fs {
			at = at.Add(time.Duration(f * float64(2*time.Second)))
			ts = append(ts, at)
		}
		return ts
	}
	for _, tt := range []struct {
		name          string
		ts            []time.Time
		growing, poll bool
	}{
		{"real limiter, 9 failures, ms stamps", limiterTimes(9, time.Millisecond, false), true, false},
		{"real limiter, 9 failures, 30ms reconciles", limiterTimes(9, 30*time.Millisecond, false), true, false},
		{"real limiter, 14 failures, whole seconds", limiterTimes(14, time.Millisecond, true), true, false},
		{"real limiter, 4 failures", limiterTimes(4, time.Millisecond, false), true, false},
		{"real limiter, 3 failures: too few", limiterTimes(3, time.Millisecond, false), false, false},
		{"real limiter, 9 failures in one second, whole seconds", limiterTimes(9, time.Millisecond, true), false, false},
		{"RequeueAfter 5s", everyGap(6, 5*time.Second), false, true},
		{"every 60s, whole seconds", everyGap(5, time.Minute), false, true},
		{"a burst every 100ms (the bucket's pace)", everyGap(8, 100*time.Millisecond), false, false},
		{"leader election retries, jittered", jittered(1.0, 1.5, 2.19, 1.0, 1.6, 2.1), false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gaps, growing := growingGaps(tt.ts)
			if growing != tt.growing {
				t.Errorf("growing %v (%v), want %v", growing, gaps, tt.growing)
			}
			if every, poll := equalGaps(tt.ts); poll != tt.poll {
				t.Errorf("poll %v (every %v), want %v", poll, every, tt.poll)
			}
		})
	}
}
