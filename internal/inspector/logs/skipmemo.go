package logs

import (
	"bytes"
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
// differs from it only in a few bytes that no marker and no hint's words
// hold (a time's digits) is skipped too, with no hint but perhaps an
// event's (eventCaller, read again: its head is short): a marker or hint
// it holds that the line kept does not would hold one of the bytes that
// differ, for the line kept has every other byte of it, at the same place.
// The bytes that differ are found by comparing eight at a time (the line
// is read once, as the search read it), and looked up in the prefilter's
// table of its markers' and the hints' bytes (markerSet.stop).
// TestSkippedLinesAreSkips checks it on the lines of the fixtures, each
// changed at random.

// skipWays is how many skipped lines a goroutine keeps; skipMaxDiff bounds
// the bytes in which a line may differ from one (a time's, a counter's):
// past it, the line is searched whole.
const (
	skipWays    = 4
	skipMaxDiff = 32
)

// skippedLines are the lines a reading goroutine's prefilter skipped last
// (interner.skipped).
type skippedLines struct {
	way  [skipWays][]byte
	next int
}

// hintBytes are the bytes of the hints' words that a skipped line is
// searched for (hintsOf): kcmreplica.go's file name and handlerlogger.go's
// field. Every markerSet's stop holds them.
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
		if len(kept) == len(line) && len(line) > 0 && differsPlainly(kept, line, &m.stop) {
			*h = lineHints{event: eventCaller(line[:min(len(line), eventHead)]) >= 0}
			return true
		}
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

// skipBlock is how many bytes differsPlainly compares at once before it
// looks at them eight at a time.
const skipBlock = 64

// differsPlainly says whether b, as long as a, differs from it in at most
// skipMaxDiff bytes, none of them one of stop's. A block of skipBlock
// bytes at a time, eight at a time in a block that differs: most differ
// in none, and a kept line and its repeat differ in their time alone.
func differsPlainly(a, b []byte, stop *[256]bool) bool {
	n := len(a)
	b = b[:n]
	diff := 0
	for from := 0; from < n; from += skipBlock {
		to := min(from+skipBlock, n)
		if bytes.Equal(a[from:to], b[from:to]) {
			// A block the same, at the speed of a memory compare (SIMD),
			// not eight bytes a step: most of a line is.
			continue
		}
		i := from
		for ; i+8 <= to; i += 8 {
			x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
			for x != 0 {
				z := bits.TrailingZeros64(x) / 8
				if diff++; diff > skipMaxDiff || stop[b[i+z]] {
					return false
				}
				x &^= 0xff << (8 * z)
			}
		}
		for ; i < to; i++ {
			if a[i] != b[i] {
				if diff++; diff > skipMaxDiff || stop[b[i]] {
					return false
				}
			}
		}
	}
	return true
}
