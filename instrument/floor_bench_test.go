package instrument

import (
	"sync"
	"testing"

	"k8s.io/utils/clock"
)

// BenchmarkRecordsFloor times the parts a failing reconcile's records cannot
// do without (BenchmarkReconcileRecords' floor), each alone, with the
// thread's CPU time beside the wall time:
//
//   - clock-mono: one read of the probe's real clock (monoClock.nanos: the
//     runtime's monotonic clock, one vDSO clock_gettime); a reconcile needs
//     two, its start and its end, for an exact duration.
//   - clock-realclock: k8s.io/utils/clock's RealClock.Now, time.Now: a wall
//     and a monotonic read.
//   - lock-pair: an uncontended sync.Mutex Lock and Unlock.
//   - lookup-1000: a key's entry found in its shard's map and locked, the
//     key built from the request, over 1,000 keys in turn: the handout's
//     record without its body, cache misses included.
func BenchmarkRecordsFloor(b *testing.B) {
	cpuPerOp := func(b *testing.B, since func() (int64, bool)) {
		if d, ok := since(); ok {
			b.ReportMetric(float64(d)/float64(b.N), "cpu-ns/op")
		}
	}
	cpu := func() func() (int64, bool) {
		since := threadCPU()
		return func() (int64, bool) { d, ok := since(); return d.Nanoseconds(), ok }
	}
	var sink int64
	b.Run("clock-mono", func(b *testing.B) {
		c := newMonoClock()
		t := cpu()
		for b.Loop() {
			sink += c.nanos()
		}
		cpuPerOp(b, t)
	})
	b.Run("clock-realclock", func(b *testing.B) {
		var c clock.PassiveClock = clock.RealClock{}
		t := cpu()
		for b.Loop() {
			sink += c.Now().UnixNano()
		}
		cpuPerOp(b, t)
	})
	b.Run("lock-pair", func(b *testing.B) {
		var mu sync.Mutex
		t := cpu()
		for b.Loop() {
			mu.Lock()
			mu.Unlock()
		}
		cpuPerOp(b, t)
	})
	b.Run("lookup-1000", func(b *testing.B) {
		s := benchProbe(true).store
		reqs := benchRequests(1_000)
		for _, r := range reqs {
			s.added(r)
		}
		i := 0
		t := cpu()
		for b.Loop() {
			r := reqs[i%len(reqs)]
			// A miss of the shard's last entry: the previous key's.
			if e, sh := s.lockEntry(r, 0); e != nil {
				sink += int64(e.failures)
				sh.mu.Unlock()
			}
			i++
		}
		cpuPerOp(b, t)
	})
	_ = sink
}
