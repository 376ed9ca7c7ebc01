package logs

import (
	"slices"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// errorRate looks for the signature of zap's sampler in the times of the
// "Reconciler error" lines: controller-runtime's production logger
// (zapcore.NewSamplerWithOptions(core, time.Second, 100, 100)) counts the
// entries of one message from the first one after a reset, writes the first
// api.SampledLines of that second and then every 100th, and resets at the
// first entry a second or more later. That first entry is always written, so
// the sampler's seconds ("ticks") can be rebuilt from the written lines
// alone: a tick starts at a line and holds every line less than a second
// after it.
//
// A rate alone is no evidence (a controller failing 300 keys at once writes
// 300 lines in a second, sampled or not), so errorRate says a log is sampled
// only when its ticks show what the sampler leaves:
//
//   - a tick with more than api.SampledLines lines, whose lines after the
//     100th come at a hundredth of the pace of the first 100 (each stands
//     for the 99 entries dropped before it), pace being the median gap
//     between lines, which one stall of the process does not move; or
//   - two ticks in a row with exactly api.SampledLines lines each (a rate
//     between 100 and 200 entries a second, cut to 100).
//
// And it says a log is not sampled when a tick with more than
// api.SampledLines lines keeps the first hundred's pace after them: the
// sampler cannot have written those.
//
// Times in whole seconds (controller-runtime's production encoder writes
// RFC 3339 without a fraction) hide the pace, so there the signature is the
// sampler's ceiling: two ticks in a row (windows: a second and the
// sparser second of its rest) with api.SampledLines to
// api.SampledLines+coarseBand lines each (a sampled rate of up to about
// 4,000 entries a second), and more than coarseProof lines in one second
// says the logger does not sample (a sampler writes that many only past
// 5,000 entries a second). A single burst says nothing.
type errorRate struct {
	// The tick being read: when it started, its lines, the time of its
	// 100th line and of its last, and whether any of its times has a
	// fraction of a second.
	start, hundredth, last time.Time
	lines                  int
	fine                   bool
	// The tick's gaps between lines in the log's order (one a little out
	// of order counts as none): the first 99, between its first 100 lines,
	// and up to maxAfterGaps after them. paced compares their medians, so
	// that one pause (a busy process stalls the logger now and then) does
	// not hide the sampler's pace, nor fake it.
	prev      time.Time
	firstGaps [api.SampledLines - 1]time.Duration
	afterGaps [maxAfterGaps]time.Duration
	// prevFull is set when the tick before this one held exactly
	// api.SampledLines lines and ended less than a second before this one
	// began; prevStart is when it started.
	prevFull  bool
	prevStart time.Time

	// sampledAt is the start of the first tick that showed the signature;
	// unsampled is set once a tick proved the logger does not sample.
	sampledAt time.Time
	unsampled bool

	// Whole-second stamps: the second being counted and its lines, and the
	// count of the second before when it was the one just before.
	sec              int64
	secLines         int
	anyFine, counted bool
	// A window is one sampler tick as whole seconds show it: a second of
	// at least api.SampledLines lines and the second after it, when that
	// one has fewer (the tick's rest: a tick is a second from its first
	// entry, so it spans two stamps). winLines and winSec are the window
	// being read (none: winLines 0), from winSec to winEnd; prevWin is set
	// when the window before it was in the band, and prevWinEnd is its
	// last second: a sampler at a steady rate leaves no second between.
	winLines                   int
	winSec, winEnd, prevWinEnd int64
	prevWinStart               int64
	prevWin                    bool
	// subMilli is set once a time has a fraction finer than milliseconds.
	subMilli bool
}

// The whole-second thresholds (see errorRate).
const (
	coarseBand  = 40
	coarseProof = 3 * api.SampledLines
)

// Thresholds on the pace of a tick's lines after its 100th, against the
// pace of its first 100: sampled lines come about 100 times slower (each
// after 99 dropped entries); unsampled ones at the same pace.
const (
	sampledPace   = 10
	unsampledPace = 3
	// maxAfterGaps bounds the gaps kept after a tick's 100th line: a
	// sampler writes one line in 100 entries, so 128 stand for 12,800.
	maxAfterGaps = 128
)

// add notes one error line at t (lines come in the log's order; one a
// little out of order counts in the tick being read).
func (e *errorRate) add(t time.Time) {
	if e.lines == 0 || !t.Before(e.start.Add(time.Second)) {
		e.endTick(t)
	}
	e.lines++
	if e.lines > 1 {
		gap := max(t.Sub(e.prev), 0)
		switch n := e.lines - 2; {
		case n < len(e.firstGaps):
			e.firstGaps[n] = gap
		case n-len(e.firstGaps) < len(e.afterGaps):
			e.afterGaps[n-len(e.firstGaps)] = gap
		}
	}
	e.prev = t
	if t.After(e.last) {
		e.last = t
	}
	if t.Nanosecond() != 0 {
		e.fine, e.anyFine = true, true
		e.subMilli = e.subMilli || t.Nanosecond()%int(time.Millisecond) != 0
	}
	if e.lines == api.SampledLines {
		e.hundredth = e.last
	}
	e.count(t)
}

// count counts lines per whole second, for logs whose times have no
// fraction (the rules are errorRate's).
func (e *errorRate) count(t time.Time) {
	if sec := t.Unix(); !e.counted || sec != e.sec {
		e.endSecond(sec)
	}
	e.secLines++
}

// endSecond judges the second being counted and starts counting sec.
func (e *errorRate) endSecond(sec int64) {
	if e.counted && !e.anyFine {
		if e.secLines > coarseProof {
			e.unsampled = true
		}
		switch {
		case e.secLines >= api.SampledLines:
			e.endWindow()
			e.winLines, e.winSec, e.winEnd = e.secLines, e.sec, e.sec
		case e.winLines > 0 && e.sec == e.winSec+1:
			e.winLines, e.winEnd = e.winLines+e.secLines, e.sec
			e.endWindow()
		default:
			e.endWindow()
		}
	}
	e.sec, e.secLines, e.counted = sec, 0, true
}

// endWindow judges the window being read: two in a row (the second
// starting the second after the first ends), each holding
// api.SampledLines to api.SampledLines+coarseBand lines, are the
// sampler's ceiling.
func (e *errorRate) endWindow() {
	if e.winLines == 0 {
		if e.counted && e.sec > e.prevWinEnd+1 {
			e.prevWin = false
		}
		return
	}
	in := e.winLines <= api.SampledLines+coarseBand
	if in && e.prevWin && e.winSec == e.prevWinEnd+1 && e.sampledAt.IsZero() {
		e.sampledAt = time.Unix(e.prevWinStart, 0).UTC()
	}
	e.prevWin, e.prevWinStart, e.prevWinEnd, e.winLines = in, e.winSec, e.winEnd, 0
}

// endTick judges the tick being read and starts the next one at t.
func (e *errorRate) endTick(t time.Time) {
	if e.lines > 0 {
		full := e.lines == api.SampledLines && e.fine
		if full && e.prevFull && e.sampledAt.IsZero() {
			e.sampledAt = e.prevStart
		}
		if s, ok := e.paced(); ok {
			e.sampledAt = earliest(e.sampledAt, s)
		}
		e.prevFull = full && t.Sub(e.start) < 2*time.Second
		e.prevStart = e.start
	}
	e.start, e.last, e.hundredth, e.lines, e.fine = t, t, time.Time{}, 0, false
}

// paced judges the pace of the tick's lines after its 100th: the tick's
// start and true when they show the sampler; it sets unsampled when they
// show there is none.
func (e *errorRate) paced() (time.Time, bool) {
	if e.lines <= api.SampledLines || !e.fine {
		return time.Time{}, false
	}
	// The step of the log's clock: a millisecond for ISO 8601 stamps.
	step := time.Millisecond
	if e.subMilli {
		step = time.Microsecond
	}
	if e.last.Sub(e.hundredth) < step {
		// The lines after the 100th share its stamp: they came faster
		// than the stamps show, sampled or not.
		return time.Time{}, false
	}
	// The median gap of the first 100 lines, and of the lines after them.
	// Lines within one step of the clock came at most a hundredth of a
	// step apart.
	first := median(e.firstGaps[:])
	if first == 0 {
		first = step / api.SampledLines
	}
	after := median(e.afterGaps[:min(e.lines-api.SampledLines, maxAfterGaps)])
	switch {
	case after >= sampledPace*first:
		return e.start, true
	case after < unsampledPace*first:
		e.unsampled = true
	}
	return time.Time{}, false
}

// at is when the log first showed the sampler's signature, counting the
// tick still being read; zero when it never did, or when a tick proved the
// logger does not sample.
func (e *errorRate) at() time.Time {
	cur := *e
	cur.endTick(time.Time{})
	cur.endSecond(cur.sec + 1)
	cur.endWindow()
	if cur.unsampled {
		return time.Time{}
	}
	return cur.sampledAt
}

// median of gaps, which it leaves as they are.
func median(gaps []time.Duration) time.Duration {
	var buf [max(api.SampledLines-1, maxAfterGaps)]time.Duration
	xs := buf[:copy(buf[:], gaps)]
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

// undercounted marks k when it failed at or after sampled (the log's
// sampler's signature, errorRate.at; zero: none): its counts are lower
// bounds, on every count shown (api.Key.Undercounted).
func undercounted(k api.Key, sampled time.Time) api.Key {
	if sampled.IsZero() || k.Failures == 0 && k.TotalFailures == 0 {
		return k
	}
	last := k.LastReconcileAt
	if k.LastError != nil && !k.LastError.At.IsZero() {
		last = k.LastError.At
	}
	k.Undercounted = !last.Before(sampled)
	return k
}
