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
// every thirteen, more than the line memo's work on the ten it reads.
//
// skippedLines keeps the last lines a reading goroutine's prefilter
// skipped that hold no hint either. A line as long as one of them that
// differs from it in one short run of bytes is skipped too, and has no
// hint but those found near that run: a marker or a hint it holds either
// overlaps the run, and so lies within the window around it that is
// searched, or lies wholly outside it, where the line kept has the same
// bytes at the same places and held none. The run is found by comparing
// eight bytes at a time (the line is read once, as the search read it),
// and the window is searched with the prefilter itself: its answer is the
// prefilter's on the whole line. TestSkippedLinesAreSkips checks it on
// the lines of the fixtures, each changed at random.

// skipWays is how many skipped lines a goroutine keeps; skipMaxRun bounds
// the run of bytes in which a line may differ from one (a time, a
// counter, an address): past it, the line is searched whole.
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

// hintReach is how far from a changed byte a hint's words may start or end:
// the longest of them, kcmreplica.go's file name with the word before its
// underscore, and handlerlogger.go's field.
var hintReach = max(len(replicaSetFile)+len("replica"), len(loggerField))

// skipped says whether line (its end of line on) is skipped, as ref.skips
// would say, because it is one of the lines kept but for a short run of
// bytes; h are then its hints, as hintsOf's for a skipped line.
func (k *skippedLines) skipped(line []byte, ref *parseRef, h *lineHints) bool {
	m := ref.markers
	if m == nil && len(ref.dialects) == 0 {
		m = builtinMarkers
	}
	if m == nil {
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
		reach := max(m.longest, hintReach)
		w := line[max(0, from-reach):min(len(line), to+reach)]
		if m.has(w) {
			return false
		}
		*h = lineHints{
			replica: replicaHint(w, outSkipped),
			event:   eventCaller(line[:min(len(line), eventHead)]) >= 0,
			logger:  bytes.Contains(w, loggerField),
		}
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
