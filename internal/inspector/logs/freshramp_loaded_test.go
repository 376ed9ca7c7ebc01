package logs

import (
	"strings"
	"testing"
	"time"
)

// TestFreshRampLoaded: the fresh ramp of a real classic queue on a loaded
// machine (testdata/queue/freshramp-loaded-classic.log, README there),
// whose first gap is 4.1ms for the limiter's 5ms, is still read as the
// queue counts it: 5 failures from the 12th line, not 4 from the 13th.
func TestFreshRampLoaded(t *testing.T) {
	log := strings.TrimSpace(readTestdata(t, "testdata/queue/freshramp-loaded-classic.log"))
	lines := strings.Split(log, "\n")
	var twelfth time.Time
	for i, n := 0, 0; i < len(lines); i++ {
		if r, ok := Parse([]byte(lines[i]), time.Now()); ok && r.What == ErrorLine {
			if n++; n == 12 {
				twelfth = r.At
			}
		}
	}
	if twelfth.IsZero() {
		t.Fatal("the fixture has fewer than 12 failure lines")
	}
	k := keyDetail(t, readLog(t, time.Now(), lines...), "widget", "default/c1")
	if k.Failures != 5 || !k.FirstFailureAt.Equal(twelfth) || k.Delay.Duration != 80*time.Millisecond {
		t.Errorf("%d failures from %v, delay %v; the real queue: 5 from %v, 80ms", k.Failures, k.FirstFailureAt, k.Delay.Duration, twelfth)
	}
}
