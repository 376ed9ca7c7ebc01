package logs

import (
	"encoding/binary"
	"math/bits"
)

// A controller's log repeats lines no dialect reads as well as those it
// does: controller-runtime writes "Starting EventSource", "Starting
// Controller" and "Starting workers" each time a controller starts, the
// same bytes but for their time. The prefilter searches every byte of such
// a line for the markers of every dialect (prefilter.go), some eight
// instructions a byte, and the worker then searches it again for the hints
// the applier asks (hintsOf): in BenchmarkRead1M's log, three lines of
// every thirteen, a fifth of a worker's instructions.
//
// skippedLines keeps the last lines a reading goroutine's prefilter
// skipped that hold no hint either. A line as long as one of them that
// differs from it only in bytes that no marker and no hint's words hold
// (a time's digits) is skipped too, with no hint but perhaps an event's
// (eventCaller, read again: its head is short): a marker or hint it holds
// that the line kept does not would hold one of the bytes that differ,
// for the line kept has every other byte of it, at the same place. The
// bytes that differ are found by comparing eight at a time, from either
// end (the line is read about once, where the search read it all), and
// looked up in the prefilter's table of its markers' bytes
// (markerSet.in). TestSkippedLinesAreSkips checks it on the lines of the
// fixtures, each changed at random.

// skipWays is how many skipped lines a goroutine keeps; skipMaxRun bounds
// the run of bytes, from the first that differs to the last, in which a
// line may differ from one (a time, a counter, an address): past it, the
// line is searched whole.
const (
	skipWays   = 4
	skipMaxRun = 64
)

// skippedLines are the lines a reading goroutine's prefilter skipped last
// (interner.skipped).
type skippedLines struct {
	way  [skipWays][]byte
	next int
}

// hintBytes are the bytes of the hints' words that a skipped line is
// searched for (hintsOf): kcmreplica.go's file name and handlerlogger.go's
// field.
var hintBytes = func() (t [256]bool) {
	for _, w := range [][]byte{replicaSetFile, loggerField} {
		for _, c := range w {
			t[c] = true
		}
	}
	return t
}()

// skipped says whether line (its end of line on) is skipped, as ref.skips
// would say, because it is one of the lines kept but for bytes no marker
// holds; h are then its hints, as hintsOf's for a skipped line.
func (k *skippedLines) skipped(line []byte, ref *parseRef, h *lineHints) bool {
	m := ref.markers
	if m == nil && len(ref.dialects) == 0 {
		m = builtinMarkers
	}
	if m == nil || m.all {
		return false
	}
	for _, kept := range k.way {
		if len(kept) != len(line) || len(line) == 0 {
			continue
		}
		from, to, ok := differ(kept, line)
		if !ok {
			continue
		}
		for i := from; i < to; i++ {
			if c := line[i]; c != kept[i] && (m.in[c] || hintBytes[c]) {
				return false // perhaps a marker or a hint: searched whole
			}
		}
		*h = lineHints{event: eventCaller(line[:min(len(line), eventHead)]) >= 0}
		return true
	}
	return false
}

// keep keeps line, which the prefilter skipped and whose hints are h,
// when it has none to carry (a line kept has none: see above).
func (k *skippedLines) keep(line []byte, h lineHints) {
	if h != (lineHints{}) || len(line) == 0 || len(line) > memoMaxLine {
		return
	}
	k.way[k.next] = append(k.way[k.next][:0], line...)
	k.next = (k.next + 1) % skipWays
}

// differ is where b, as long as a, differs from it: from the first byte
// that differs to the last, the run line[from:to], when that is no
// longer than skipMaxRun (equal lines differ in an empty run).
func differ(a, b []byte) (from, to int, ok bool) {
	n := len(a)
	for from < n {
		if from+8 <= n {
			if x := binary.LittleEndian.Uint64(a[from:]) ^ binary.LittleEndian.Uint64(b[from:]); x != 0 {
				from += bits.TrailingZeros64(x) / 8
				break
			}
			from += 8
			continue
		}
		if a[from] != b[from] {
			break
		}
		from++
	}
	if from == n {
		return n, n, true
	}
	to = n
	for to > from {
		if to-8 >= from {
			if x := binary.LittleEndian.Uint64(a[to-8:]) ^ binary.LittleEndian.Uint64(b[to-8:]); x != 0 {
				to -= bits.LeadingZeros64(x) / 8
				break
			}
			to -= 8
			continue
		}
		if a[to-1] != b[to-1] {
			break
		}
		to--
	}
	return from, to, to-from <= skipMaxRun
}
