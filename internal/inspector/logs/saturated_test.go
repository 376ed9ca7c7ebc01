package logs

import (
	"fmt"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// joinedOutage is a classic queue's mass failure read from its middle (tail
// -f shows a log's last lines; the burst is long gone): 110 keys fail in
// turn at the bucket's pace, 10 a second (client-go's rate.NewLimiter(10,
// 100) served in order), so each waits 11s for its token; rounds rounds.
func joinedOutage(rounds int) []Record {
	var rs []Record
	for j := range rounds {
		for k := range 110 {
			at := time.Duration(j)*11*time.Second + time.Duration(k)*100*time.Millisecond
			rs = append(rs, rec(ErrorLine, fmt.Sprintf("ns/k%03d", k), at, "503 Service Unavailable"))
		}
	}
	return rs
}

// TestJoinedOutageReadsTheBucket: a log joined during an outage replays its
// bucket from full, so the replay never sees it empty; each key read "1
// failure, 5ms", unknown 2s later, its retry 11s later a new streak ("the
// failure count restarted"), and the bucket was never read (the demo, piped
// through tail -f: 50 of 107 keys unknown). The pace says the bucket was in
// debt: a live read, lines applied as they come at the clock of each, reads
// each key's streak whole and its ~11s wait, as a saved read of the same
// lines does.
func TestJoinedOutageReadsTheBucket(t *testing.T) {
	rs := joinedOutage(4)
	end := rs[len(rs)-1].At
	clk := clocktesting.NewFakeClock(rs[0].At)
	live := NewStore(Options{Live: true, Clock: clk})
	for _, r := range rs {
		clk.SetTime(r.At.Add(900 * time.Millisecond)) // stamps of whole seconds, read late
		live.Add(r)
	}
	saved := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(end)})
	for _, r := range rs {
		saved.Add(r)
	}
	for name, s := range map[string]*Store{"live": live, "saved": saved} {
		if l := s.Controllers().Controllers[0].Limiter; len(l.Components) != 2 {
			t.Errorf("%s: limiter %q, want the bucket read from the pace", name, l.Description)
		}
		// Keys that failed in the last round (the first keys' last failures
		// lie 11s behind the end) are waiting for their 11s retry.
		for k := 0; k < 110; k += 11 {
			d, err := s.Key("c", fmt.Sprintf("ns/k%03d", k))
			if err != nil {
				t.Fatal(err)
			}
			got := d.Key
			if got.State != api.StateBackoff || got.Failures < 3 || got.Delay.Duration < 9*time.Second || got.Delay.Duration > 13*time.Second {
				t.Errorf("%s: ns/k%03d %s, %d failures, delay %v (%s); want backoff, its 4 failures one streak (3 at least: the first retry teaches), ~11s",
					name, k, got.State, got.Failures, got.Delay.Duration, got.DelaySource)
			}
		}
	}
}
